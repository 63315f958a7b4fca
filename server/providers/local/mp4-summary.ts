import "server-only";

// Reads the few MP4 (ISO BMFF) boxes needed to check a rendered video without ffprobe: the
// brand, the movie duration from `mvhd`, and each track's handler, duration and sample entry.

export type Mp4Track = {
  handler: string;
  durationSeconds: number;
  sampleEntry: string | null;
  width: number | null;
  height: number | null;
};
export type Mp4Summary = { majorBrand: string; durationSeconds: number; tracks: Mp4Track[] };

type Box = { type: string; start: number; end: number; body: number };

function* boxes(view: DataView, start: number, end: number): Generator<Box> {
  let offset = start;
  while (offset + 8 <= end) {
    let size = view.getUint32(offset);
    const type = String.fromCharCode(
      view.getUint8(offset + 4),
      view.getUint8(offset + 5),
      view.getUint8(offset + 6),
      view.getUint8(offset + 7),
    );
    let header = 8;
    if (size === 1) {
      size = Number(view.getBigUint64(offset + 8));
      header = 16;
    } else if (size === 0) size = end - offset;
    if (size < header || offset + size > end) throw new Error(`malformed MP4 box "${type}" at ${offset}`);
    yield { type, start: offset, end: offset + size, body: offset + header };
    offset += size;
  }
}

/** The first box down the path of types, e.g. descend(view, trak, "mdia", "hdlr"). */
function descend(view: DataView, parent: Box, ...types: string[]): Box | undefined {
  let current: Box | undefined = parent;
  for (const type of types) {
    if (!current) return undefined;
    const within: Box = current;
    current = undefined;
    for (const box of boxes(view, within.body, within.end)) {
      if (box.type === type) {
        current = box;
        break;
      }
    }
  }
  return current;
}

/** `mvhd` and `mdhd` share the layout: version, flags, times, then timescale and duration. */
function timedDuration(view: DataView, box: Box): number {
  const version = view.getUint8(box.body);
  const timescale = view.getUint32(box.body + (version === 1 ? 20 : 12));
  const duration = version === 1 ? Number(view.getBigUint64(box.body + 24)) : view.getUint32(box.body + 16);
  return timescale > 0 ? duration / timescale : 0;
}

const fourCc = (view: DataView, at: number) =>
  String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3));

export function readMp4Summary(bytes: Uint8Array): Mp4Summary {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const top = [...boxes(view, 0, bytes.byteLength)];
  const ftyp = top.find((box) => box.type === "ftyp");
  const moov = top.find((box) => box.type === "moov");
  if (!ftyp || !moov) throw new Error("not an MP4 file: no ftyp or moov box");
  const mvhd = descend(view, moov, "mvhd");
  if (!mvhd) throw new Error("MP4 without mvhd box");
  const tracks: Mp4Track[] = [];
  for (const trak of boxes(view, moov.body, moov.end)) {
    if (trak.type !== "trak") continue;
    const mdhd = descend(view, trak, "mdia", "mdhd");
    const hdlr = descend(view, trak, "mdia", "hdlr");
    const stsd = descend(view, trak, "mdia", "minf", "stbl", "stsd");
    // stsd: version/flags (4), entry count (4), then the first sample entry box.
    const entry = stsd && stsd.body + 8 + 8 <= stsd.end ? fourCc(view, stsd.body + 8 + 4) : null;
    const visual = entry !== null && hdlr !== undefined && fourCc(view, hdlr.body + 8) === "vide";
    // A visual sample entry: box header (8), reserved (6), data ref (2), pre-defined (16), then width, height.
    const at = stsd ? stsd.body + 8 + 32 : 0;
    tracks.push({
      handler: hdlr ? fourCc(view, hdlr.body + 8) : "",
      durationSeconds: mdhd ? timedDuration(view, mdhd) : 0,
      sampleEntry: entry,
      width: visual ? view.getUint16(at) : null,
      height: visual ? view.getUint16(at + 2) : null,
    });
  }
  return { majorBrand: fourCc(view, ftyp.body), durationSeconds: timedDuration(view, mvhd), tracks };
}
