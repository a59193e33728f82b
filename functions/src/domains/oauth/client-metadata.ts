// Fetching a Client ID Metadata Document: the client_id is an HTTPS URL and the document at it
// describes the client. It is fetched from the open internet, so: HTTPS only (plain HTTP to
// loopback in the emulator), no redirects, 5 s and 16 KB at most, and every address the name
// resolves to must be public — checked in the socket's own DNS lookup, so a name cannot resolve
// to a public address for the check and a private one for the connection.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { isEmulator } from "../../auth/urls.js";

export const MAX_DOCUMENT_BYTES = 16 * 1024;
const TIMEOUT_MS = 5000;

const privateRanges = new BlockList();
for (const [net, bits] of [["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["169.254.0.0", 16], ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4]] as const) {
  privateRanges.addSubnet(net, bits, "ipv4");
}
// (IPv4-mapped and -compatible IPv6 are handled in addressAllowed: Node's BlockList would apply
// such ranges to every IPv4 address.)
for (const [net, bits] of [["::", 128], ["64:ff9b::", 96], ["100::", 64], ["2001:db8::", 32], ["2002::", 16], ["fc00::", 7], ["fec0::", 10], ["fe80::", 10], ["ff00::", 8]] as const) {
  privateRanges.addSubnet(net, bits, "ipv6");
}
const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** Whether an address may be fetched: public, or loopback in the emulator only. */
export function addressAllowed(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (!mapped && /^::(ffff:)?[0-9a-f]{1,4}:[0-9a-f]{1,4}$/i.test(address)) return false; // mapped/compatible IPv4 in hex form
  const ip = mapped ?? address;
  const family = isIP(ip) === 6 ? "ipv6" : "ipv4";
  if (loopback.check(ip, family)) return isEmulator();
  return !privateRanges.check(ip, family);
}

export class MetadataFetchError extends Error {}

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 0);
    const list = addresses as LookupAddress[];
    const refused = list.find((a) => !addressAllowed(a.address));
    if (refused || !list.length) return callback(new MetadataFetchError(`${hostname} resolves to a private or reserved address`), "", 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

export function fetchClientMetadata(url: URL, signal?: AbortSignal): Promise<unknown> {
  const secure = url.protocol === "https:";
  if (!secure && !(isEmulator() && url.protocol === "http:")) return Promise.reject(new MetadataFetchError("client_id must be an https URL"));
  if (isIP(url.hostname.replace(/^\[|\]$/g, "")) && !addressAllowed(url.hostname.replace(/^\[|\]$/g, ""))) {
    return Promise.reject(new MetadataFetchError(`${url.hostname} is a private or reserved address`));
  }
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).get(url, { lookup: guardedLookup, timeout: TIMEOUT_MS, headers: { accept: "application/json" }, ...(signal ? { signal } : {}) }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new MetadataFetchError(`the client metadata document answered HTTP ${res.statusCode}`));
      }
      const declared = Number(res.headers["content-length"] ?? 0);
      if (declared > MAX_DOCUMENT_BYTES) {
        res.destroy();
        return reject(new MetadataFetchError(`the client metadata document is larger than ${MAX_DOCUMENT_BYTES / 1024} KB`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_DOCUMENT_BYTES) {
          res.destroy();
          reject(new MetadataFetchError(`the client metadata document is larger than ${MAX_DOCUMENT_BYTES / 1024} KB`));
        } else chunks.push(chunk);
      });
      res.on("end", () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        } catch {
          reject(new MetadataFetchError("the client metadata document is not valid JSON"));
        }
      });
    });
    // One deadline for everything (DNS, connect, a slow trickle of bytes), not only idle sockets.
    const deadline = setTimeout(() => req.destroy(new MetadataFetchError("the client metadata document did not arrive within 5 seconds")), TIMEOUT_MS);
    req.on("close", () => clearTimeout(deadline));
    req.on("timeout", () => req.destroy(new MetadataFetchError("the client metadata document did not arrive within 5 seconds")));
    req.on("error", (err) => reject(err instanceof MetadataFetchError ? err : new MetadataFetchError(`the client metadata document could not be fetched`)));
  });
}
