// The by-source / by-author / by-tag resources page: 50 chunks a page, and a page that has more
// names the URI of the next one, so every chunk can be reached (they used to stop at 50 silently).
import { FieldValue, Timestamp } from "firebase-admin/firestore";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { KB_ITEMS } from "../../functions/src/domains/knowledge/schema.js";
import { adminDb, createUser } from "../support/emulators.js";
import { connect } from "../support/mcp.js";

const CHUNKS = 120;
let client: Client;
const ids = new Set<string>();

beforeAll(async () => {
  const user = await createUser();
  const batch = adminDb().batch();
  // Same second for pairs of chunks: the order must still be total (created_at, then id).
  for (let i = 0; i < CHUNKS; i++) {
    const ref = adminDb().collection(KB_ITEMS).doc(`pg-${user.uid}-${String(i).padStart(3, "0")}`);
    ids.add(ref.id);
    batch.set(ref, {
      owner_uid: user.uid,
      parent_doc_id: `doc-${user.uid}`,
      chunk_index: i,
      total_chunks: CHUNKS,
      title: "Paging",
      author: "Page Turner",
      source: "markdown",
      category: "notes",
      tags: ["paging"],
      content: `Chunk number ${i}.`,
      embedding: FieldValue.vector(Array.from({ length: 768 }, (_, k) => (k === i % 768 ? 1 : 0))),
      embedding_model: "test-model",
      created_at: Timestamp.fromMillis(1_700_000_000_000 + Math.floor(i / 2) * 1000),
      updated_at: Timestamp.fromMillis(1_700_000_000_000),
    });
  }
  await batch.commit();
  client = await connect("knowledge", { token: user.token });
});
afterAll(async () => client?.close());

async function readAll(first: string): Promise<{ pages: number[]; seen: string[] }> {
  const pages: number[] = [];
  const seen: string[] = [];
  let uri: string | undefined = first;
  for (let guard = 0; uri && guard < 10; guard++) {
    const result = await client.readResource({ uri });
    const text = (result.contents[0] as { text: string }).text;
    const onPage = [...text.matchAll(/\*Chunk `([^`]+)`/g)].map((m) => m[1]!);
    pages.push(onPage.length);
    seen.push(...onPage);
    uri = /read (kxhub:\/\/\S+\?cursor=\S+) for the next 50\./.exec(text)?.[1];
  }
  return { pages, seen };
}

describe("by-source / by-author / by-tag resources page with a cursor", () => {
  test.each(["kxhub://chunks/by-author/Page%20Turner", "kxhub://chunks/by-tag/paging"])("%s: 50 + 50 + 20, every chunk once", async (uri) => {
    const { pages, seen } = await readAll(uri);
    expect(pages).toEqual([50, 50, 20]);
    expect(new Set(seen).size).toBe(CHUNKS);
    expect(new Set(seen)).toEqual(ids);
  });

  test("a cursor that was not issued is refused as invalid params", async () => {
    const error = await client.readResource({ uri: "kxhub://chunks/by-author/Page%20Turner?cursor=not-a-cursor" }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).not.toMatch(/Something went wrong/);
  });
});
