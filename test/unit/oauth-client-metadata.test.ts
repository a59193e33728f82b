// The client-metadata fetcher's own guards, run in-process as production runs them (not the
// emulator, where loopback is allowed): names that resolve to private addresses are refused inside
// the socket's DNS lookup, and a document streamed without a length is cut at 16 KB.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import { addressAllowed, fetchClientMetadata } from "../../functions/src/domains/oauth/client-metadata.js";

const saved = process.env.FUNCTIONS_EMULATOR;
afterEach(() => {
  if (saved === undefined) delete process.env.FUNCTIONS_EMULATOR;
  else process.env.FUNCTIONS_EMULATOR = saved;
});

test("private, loopback, link-local and reserved addresses are refused in production", () => {
  delete process.env.FUNCTIONS_EMULATOR;
  for (const ip of ["127.0.0.1", "10.0.0.5", "172.20.1.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fd00::1", "fe80::1", "::ffff:10.0.0.1", "2001:db8::1"]) {
    expect(addressAllowed(ip), ip).toBe(false);
  }
  for (const ip of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"]) expect(addressAllowed(ip), ip).toBe(true);
});

test("a name that resolves to a private address is refused at connect time (DNS rebinding)", async () => {
  delete process.env.FUNCTIONS_EMULATOR;
  // localhost resolves to loopback: refused by the lookup guard, no request is made.
  await expect(fetchClientMetadata(new URL("http://localhost:9/client.json"))).rejects.toThrow(/https URL/);
  process.env.FUNCTIONS_EMULATOR = "true"; // allow http, but …
  const server = createServer((_req, res) => res.end("{}"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    delete process.env.FUNCTIONS_EMULATOR;
    await expect(fetchClientMetadata(new URL(`https://localhost:${port}/client.json`))).rejects.toThrow(/resolves to a private or reserved address/);
  } finally {
    server.close();
  }
});

test("a document streamed without Content-Length is cut at 16 KB", async () => {
  process.env.FUNCTIONS_EMULATOR = "true";
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }); // chunked: no length announced
    const chunk = "x".repeat(4096);
    for (let i = 0; i < 8; i++) res.write(chunk);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await expect(fetchClientMetadata(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/c.json`))).rejects.toThrow(/larger than 16 KB/);
  } finally {
    server.close();
  }
});
