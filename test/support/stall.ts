// Dependencies that stop answering, for the deadline tests: a TCP proxy in front of an emulator
// that can stall (connections stay open, nothing passes either way, as when the emulator's
// process is paused), and a server that accepts connections and never answers (a hung API).
import { connect, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface StallableProxy {
  /** host:port to give the functions instead of the emulator's. */
  host: string;
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: Server, sockets: Iterable<Socket>): Promise<void> {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A proxy to `target` (host:port). While stalled, bytes are held (never dropped) and passed on at resume. */
export async function stallableProxy(target: string): Promise<StallableProxy> {
  const [targetHost, targetPort] = target.split(":") as [string, string];
  let stalled = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(targetPort), targetHost);
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(from);
      if (stalled) from.pause();
      from.on("data", (chunk) => to.write(chunk));
      from.on("error", () => to.destroy());
      from.on("close", () => (sockets.delete(from), to.destroy()));
    }
  });
  const host = await listen(server);
  return {
    host,
    stall: () => {
      stalled = true;
      sockets.forEach((s) => s.pause());
    },
    resume: () => {
      stalled = false;
      sockets.forEach((s) => s.resume());
    },
    close: () => closeServer(server, sockets),
  };
}

/** A server that accepts every connection and never answers (an API that hangs). */
export async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
  const host = await listen(server);
  return { url: `http://${host}`, close: () => closeServer(server, sockets) };
}
