// Dependencies that stop answering, for the deadline tests: a TCP proxy in front of an emulator
// that can stall (connections stay open, nothing passes either way, as when the emulator's
// process is paused), a server that accepts connections and never answers (a hung API), and an
// HTTP/2 server that accepts gRPC calls and never answers them, noting when each call's stream
// was opened and how the client ended it (what a stalled Firestore sees on the wire).
import { createServer as createHttp2Server, constants as http2 } from "node:http2";
import { connect, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface StallableProxy {
  /** host:port to give the functions instead of the emulator's. */
  host: string;
  stall(): void;
  resume(): void;
  /**
   * The HTTP/2 streams clients opened (HEADERS) and reset (RST_STREAM) through the proxy, as
   * read from what clients sent (also while stalled: a paused process's kernel still takes in
   * bytes). Streams are named `<connection>:<stream id>`.
   */
  frames: { stream: string; kind: "opened" | "reset"; at: number }[];
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

const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
const HEADERS = 0x1;
const RST_STREAM = 0x3;

/** Reads the frames a client sends on one connection (nothing when it does not speak HTTP/2). */
function frameReader(connection: number, seen: StallableProxy["frames"]): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let state: "preface" | "frames" | "other" = "preface";
  const opened = new Set<number>();
  return (chunk) => {
    if (state === "other") return;
    pending = Buffer.concat([pending, chunk]);
    if (state === "preface") {
      if (pending.length < HTTP2_PREFACE.length) return;
      if (!pending.subarray(0, HTTP2_PREFACE.length).equals(HTTP2_PREFACE)) return void (state = "other");
      pending = pending.subarray(HTTP2_PREFACE.length);
      state = "frames";
    }
    while (pending.length >= 9) {
      const length = pending.readUIntBE(0, 3);
      if (pending.length < 9 + length) return;
      const type = pending[3]!;
      const id = pending.readUInt32BE(5) & 0x7fffffff;
      if (type === HEADERS && !opened.has(id)) opened.add(id), seen.push({ stream: `${connection}:${id}`, kind: "opened", at: Date.now() });
      if (type === RST_STREAM) seen.push({ stream: `${connection}:${id}`, kind: "reset", at: Date.now() });
      pending = pending.subarray(9 + length);
    }
  };
}

/** A proxy to `target` (host:port). While stalled, bytes are held (never dropped) and passed on at resume. */
export async function stallableProxy(target: string): Promise<StallableProxy> {
  const [targetHost, targetPort] = target.split(":") as [string, string];
  let stalled = false;
  const sockets = new Set<Socket>();
  const held: (() => void)[] = [];
  const frames: StallableProxy["frames"] = [];
  let connections = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(targetPort), targetHost);
    const observe = frameReader(++connections, frames);
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(from);
      from.on("data", (chunk: Buffer) => {
        if (from === client) observe(chunk);
        if (stalled) held.push(() => to.write(chunk));
        else to.write(chunk);
      });
      from.on("error", () => to.destroy());
      from.on("close", () => (sockets.delete(from), to.destroy()));
    }
  });
  const host = await listen(server);
  return {
    host,
    frames,
    stall: () => {
      stalled = true;
    },
    resume: () => {
      stalled = false;
      for (const pass of held.splice(0)) pass();
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

/** One gRPC call as the server saw it: its method, when it was opened, when and how it ended (RST_STREAM code; CANCEL is 8). */
export interface SeenCall {
  method: string;
  openedAt: number;
  closedAt?: number;
  rstCode?: number;
}

/**
 * An HTTP/2 (h2c) server that accepts every gRPC call and never answers it (a stalled Firestore),
 * or with `unavailable`, ends each at once with gRPC's UNAVAILABLE (an overloaded one).
 */
export async function silentGrpcServer(opts: { unavailable?: boolean } = {}): Promise<{ host: string; calls: SeenCall[]; close(): Promise<void> }> {
  const calls: SeenCall[] = [];
  const server = createHttp2Server();
  const sessions = new Set<import("node:http2").ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
    session.on("error", () => undefined);
  });
  server.on("stream", (stream, headers) => {
    const call: SeenCall = { method: String(headers[http2.HTTP2_HEADER_PATH]).split("/").pop() ?? "", openedAt: Date.now() };
    calls.push(call);
    stream.on("error", () => undefined);
    stream.on("close", () => {
      call.closedAt = Date.now();
      call.rstCode = stream.rstCode;
    });
    stream.resume(); // read the request, answer nothing
    if (opts.unavailable) stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "14", "grpc-message": "overloaded" }, { endStream: true });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: async () => {
      for (const s of sessions) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
