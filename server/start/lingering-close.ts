import type { Socket } from "node:net";

// A lingering close (Apache's lingering_close): an answer sent before its request's body was read
// (the 413 of a body cap) is the connection's last, and Node closes the socket once it is
// written. Closed while the client is still sending, the socket answers the next bytes with a
// reset, and a reset can make the client's TCP discard the answer before the client read it. So
// the write side ends (FIN after the answer), what the client still sends is read and dropped, and
// the socket closes when the client ends or after `lingerMs`.

export const LINGER_MS = 2_000;

export function lingerOnClose(socket: Socket, lingerMs = LINGER_MS): void {
  const destroySoon = socket.destroySoon.bind(socket);
  socket.destroySoon = () => {
    if (socket.destroyed || socket.readableEnded) return destroySoon();
    socket.end();
    socket.resume();
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once("end", () => socket.destroy());
    socket.once("close", () => clearTimeout(timer));
  };
}
