import "server-only";
import { foldForFont, GLYPH_HEIGHT, GLYPH_WIDTH, linePath } from "./pixel-font";

// The prompt drawn into every output: a dark rounded panel near the bottom edge, lines centred,
// as large as fits in the lower 40% of the frame; text too long even at the smallest size is
// cut with "...".

const ADVANCE = GLYPH_WIDTH + 1;
const LINE_HEIGHT = GLYPH_HEIGHT + 2;

export type CaptionLayout = { scale: number; lines: string[] };

/** Greedy word wrap to `columns` characters; a word longer than a line is broken. */
export function wrapText(text: string, columns: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ").filter(Boolean)) {
    let rest = word;
    while (rest.length > columns) {
      if (current) lines.push(current);
      lines.push(rest.slice(0, columns));
      rest = rest.slice(columns);
      current = "";
    }
    if (!rest) continue;
    if (!current) current = rest;
    else if (current.length + 1 + rest.length <= columns) current += ` ${rest}`;
    else {
      lines.push(current);
      current = rest;
    }
  }
  if (current) lines.push(current);
  return lines;
}

function metrics(width: number, height: number) {
  const short = Math.min(width, height);
  const maxScale = Math.max(2, Math.floor(short / 140));
  return { margin: Math.round(short * 0.05), maxScale, minScale: short >= 200 ? 2 : 1 };
}

export function layoutCaption(prompt: string, width: number, height: number): CaptionLayout {
  const text = foldForFont(prompt).replace(/\s+/g, " ").trim();
  const { margin, maxScale, minScale } = metrics(width, height);
  const fitAt = (scale: number) => {
    const padding = 3 * scale;
    const columns = Math.max(4, Math.floor((width - 2 * margin - 2 * padding + scale) / (ADVANCE * scale)));
    const maxLines = Math.max(1, Math.floor((height * 0.4 - 2 * padding + 2 * scale) / (LINE_HEIGHT * scale)));
    return { columns, maxLines, lines: wrapText(text, columns) };
  };
  for (let scale = maxScale; scale >= minScale; scale--) {
    const fit = fitAt(scale);
    if (fit.lines.length <= fit.maxLines) return { scale, lines: fit.lines };
  }
  const { columns, maxLines, lines } = fitAt(minScale);
  const kept = lines.slice(0, maxLines);
  const last = kept.length - 1;
  kept[last] = `${(kept[last] ?? "").slice(0, columns - 3)}...`;
  return { scale: minScale, lines: kept };
}

type PanelGeometry = { x: number; y: number; width: number; height: number; markup: string };

/** Where the panel sits in a `width`×`height` frame and its markup; null when the prompt is empty. */
function captionPanelGeometry(prompt: string, width: number, height: number): PanelGeometry | null {
  const { scale, lines } = layoutCaption(prompt, width, height);
  if (lines.length === 0) return null;
  const { margin } = metrics(width, height);
  const padding = 3 * scale;
  const lineWidth = (line: string) => Array.from(line).length * ADVANCE * scale - scale;
  const panelWidth = Math.max(...lines.map(lineWidth)) + 2 * padding;
  const panelHeight = lines.length * LINE_HEIGHT * scale - 2 * scale + 2 * padding;
  const panelX = Math.round((width - panelWidth) / 2);
  const panelY = height - margin - panelHeight;
  const ink = lines
    .map((line, row) => linePath(line, Math.round((width - lineWidth(line)) / 2), panelY + padding + row * LINE_HEIGHT * scale, scale))
    .join("");
  const markup =
    `<rect x="${panelX}" y="${panelY}" width="${panelWidth}" height="${panelHeight}" rx="${2 * scale}" fill="#000" fill-opacity="0.6"/>` +
    `<path d="${ink}" fill="#fff" shape-rendering="crispEdges"/>`;
  return { x: panelX, y: panelY, width: panelWidth, height: panelHeight, markup };
}

/** A transparent SVG of `width`×`height` with the caption panel; empty when the prompt is. */
export function captionSvg(prompt: string, width: number, height: number): string {
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`;
  const panel = captionPanelGeometry(prompt, width, height);
  return `${open}${panel?.markup ?? ""}</svg>`;
}

/**
 * The panel alone, as an SVG the size of the panel (the frame's coordinates, cropped by the
 * viewBox) and where to lay it: the same pixels as captionSvg's, for a fraction of the
 * rasterizing (a full-frame transparent layer cost as much as the background). Null when empty.
 */
export function captionPanel(prompt: string, width: number, height: number): { svg: string; left: number; top: number } | null {
  const panel = captionPanelGeometry(prompt, width, height);
  if (!panel) return null;
  // Whole pixels: the panel's origin is an integer, so the crop shifts nothing by a fraction.
  const [left, top] = [Math.max(0, panel.x), Math.max(0, panel.y)];
  const [right, bottom] = [Math.min(width, Math.ceil(panel.x + panel.width)), Math.min(height, Math.ceil(panel.y + panel.height))];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${right - left}" height="${bottom - top}" viewBox="${left} ${top} ${right - left} ${bottom - top}">${panel.markup}</svg>`;
  return { svg, left, top };
}
