// A fair share per person: the requests one person (or one of their devices) has held or in
// flight on an instance are capped below what the instance works on at once, so another person
// is still answered while one account saturates its share (held plugin polls, capture waits, a
// script's loop). Counted after the credential is verified, per instance, like the gate; Cloud
// Run spreads a person's requests over instances, so a person holds at most this share of the
// function's whole capacity too. A person over their share is answered 429 + Retry-After at once.
import type { Response } from "express";
import type { Caller } from "../auth/caller.js";
import { sendJsonRpcError, JSONRPC } from "./jsonrpc.js";

export class PersonShares {
  private readonly held = new Map<string, number>();
  constructor(
    readonly perPerson: number,
    readonly retryAfterSeconds: number,
  ) {}

  /** Takes one of `key`'s slots and returns its release, or undefined when the share is full. */
  enter(key: string): (() => void) | undefined {
    const n = this.held.get(key) ?? 0;
    if (n >= this.perPerson) return undefined;
    this.held.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }
}

/** Whose share a request uses: a paired device has its own (a person's plugin polls are not queued behind their AI app's calls). */
export const shareKey = (caller: Caller): string => (caller.device ? `${caller.uid}\u0000${caller.device.id}` : caller.uid);

/**
 * Holds one of the caller's slots until the response is finished or the client is gone, or
 * answers 429 and returns false.
 */
export function claimShare(shares: PersonShares, domain: string, caller: Caller, res: Response): boolean {
  const release = shares.enter(shareKey(caller));
  if (release) {
    res.once("close", release);
    return true;
  }
  const who = caller.device ? "This device has" : "You have";
  sendJsonRpcError(
    res,
    429,
    JSONRPC.SERVER_BUSY,
    `Too many requests at once: ${who} ${shares.perPerson} requests in progress on the ${domain} server, the most one person may have at once. Wait for one to finish, or retry after ${shares.retryAfterSeconds} s.`,
    { "retry-after": String(shares.retryAfterSeconds) },
  );
  return false;
}
