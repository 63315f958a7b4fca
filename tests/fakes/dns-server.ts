import dgram from "node:dgram";
import type { AddressInfo } from "node:net";

// A tiny authoritative DNS server on a loopback UDP port, for the custom-hostname verification:
// each name answers a CNAME, NXDOMAIN, an empty answer (NODATA), or nothing at all (a timeout), as
// the test says; unlisted names are NXDOMAIN. Packets are encoded by hand (RFC 1035 §4).

export type DnsAnswer = { cname: string } | "nxdomain" | "nodata" | "silent";

export type DnsServer = {
  /** `127.0.0.1:<port>`, what DNS_SERVERS and Resolver#setServers take. */
  address: string;
  port: number;
  answer(name: string, answer: DnsAnswer): void;
  /** Queries received, as "<name> <type>". */
  queries: string[];
  close(): Promise<void>;
};

const TYPE_CNAME = 5;
const CLASS_IN = 1;

function encodeName(name: string): Buffer {
  const parts = name
    .replace(/\.$/, "")
    .split(".")
    .filter(Boolean)
    .map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, "ascii")]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

/** The question's name and where the question section ends. */
function readQuestion(packet: Buffer): { name: string; type: number; end: number } | null {
  let offset = 12;
  const labels: string[] = [];
  while (offset < packet.length) {
    const length = packet[offset] as number;
    offset += 1;
    if (length === 0) break;
    if (length > 63 || offset + length > packet.length) return null;
    labels.push(packet.subarray(offset, offset + length).toString("ascii"));
    offset += length;
  }
  if (offset + 4 > packet.length) return null;
  return { name: labels.join(".").toLowerCase(), type: packet.readUInt16BE(offset), end: offset + 4 };
}

function reply(query: Buffer, question: { end: number }, rcode: number, answers: Buffer[]): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  const recursionDesired = (query[2] as number) & 0x01;
  header[2] = 0x84 | recursionDesired; // QR, authoritative, RD echoed
  header[3] = 0x80 | rcode; // RA, rcode
  header.writeUInt16BE(1, 4); // one question
  header.writeUInt16BE(answers.length, 6);
  return Buffer.concat([header, query.subarray(12, question.end), ...answers]);
}

function cnameRecord(target: string): Buffer {
  const rdata = encodeName(target);
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(TYPE_CNAME, 0);
  fixed.writeUInt16BE(CLASS_IN, 2);
  fixed.writeUInt32BE(60, 4); // TTL
  fixed.writeUInt16BE(rdata.length, 8);
  // The owner name is a pointer to the question's name at offset 12.
  return Buffer.concat([Buffer.from([0xc0, 0x0c]), fixed, rdata]);
}

export async function startDnsServer(port = 0): Promise<DnsServer> {
  const answers = new Map<string, DnsAnswer>();
  const queries: string[] = [];
  const socket = dgram.createSocket("udp4");
  socket.on("message", (packet, remote) => {
    const question = readQuestion(packet);
    if (!question) return;
    queries.push(`${question.name} ${question.type}`);
    const answer = answers.get(question.name) ?? "nxdomain";
    if (answer === "silent") return;
    const response =
      answer === "nxdomain"
        ? reply(packet, question, 3, [])
        : answer === "nodata" || question.type !== TYPE_CNAME
          ? reply(packet, question, 0, [])
          : reply(packet, question, 0, [cnameRecord(answer.cname)]);
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(port, "127.0.0.1", () => resolve());
  });
  const bound = (socket.address() as AddressInfo).port;
  return {
    address: `127.0.0.1:${bound}`,
    port: bound,
    queries,
    answer(name, answer) {
      answers.set(name.toLowerCase(), answer);
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
