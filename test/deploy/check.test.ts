// npm run deploy:check finds offline what `firebase deploy` (or production) would refuse. The real
// tree passes; each kind of problem, planted in a temporary copy, fails it with a sentence that
// says where and what to do.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { deployCheck, edit, plantedCopy, removeCopies, REPO, write } from "./plant.js";
import { FUNCTION_NAMES } from "../../functions/src/core/manifest.js";
import { REGION } from "../../functions/src/core/where.js";

afterAll(removeCopies);

describe("the repository as it is", () => {
  let run: ReturnType<typeof deployCheck>;

  test("passes every step, functions/ installed from its own lockfile in a clean copy", () => {
    run = deployCheck(REPO);
    expect(run.problems).toEqual([]);
    expect(run.status).toBe(0);
    expect(run.out).toMatch(/npm ci \+ predeploy build in a clean copy/);
    expect(run.out).toContain("deploy:check: nothing firebase deploy would refuse.");
  }, 400_000);

  test("prints each function's region, memory, CPU, timeout, concurrency, instances and secrets, read by the SDK's discovery", () => {
    expect(run.out).toMatch(/function\s+region\s+memory\s+cpu\s+timeout\s+concurrency\s+min\s+max\s+secrets/);
    for (const fn of FUNCTION_NAMES) {
      const row = run.out.split("\n").find((l) => l.startsWith(`${fn} `) && l.includes(REGION));
      expect(row, fn).toBeDefined();
      expect(row).toMatch(/\d+ (MiB|GiB)\s+\S+\s+\d+ s\s+\d+\s+\S+\s+\d+/); // memory … timeout, concurrency, min, max (a number)
    }
    expect(run.out).toMatch(/^params:( none$|\n  \S+ \((secret|string|int|float|boolean|list))/m);
  });

  test("prints each function's cold-start import time and modules, and which domain's files it can load", () => {
    for (const fn of FUNCTION_NAMES) {
      expect(run.out).toMatch(new RegExp(`^${fn}\\s+\\d+ ms\\s+\\d+ modules`, "m"));
      expect(run.out).toMatch(new RegExp(`^${fn}\\s+\\d+ source files, domains: ${fn}$`, "m"));
    }
  });

  test("compiles both rulesets and validates the indexes with the CLI's own validator", () => {
    expect(run.out).toContain("firestore.rules: compiles");
    expect(run.out).toContain("storage.rules: compiles");
    expect(run.out).toMatch(/\d+ composite\/vector indexes, \d+ field overrides: valid/);
    expect(run.out).toMatch(/(\d+) query shapes in \d+ files: \1 served/);
  });
});

describe("a planted problem of each kind fails the check", () => {
  test("a query without its composite index (found by reading the code, in a module no list names)", () => {
    const root = plantedCopy();
    write(
      root,
      "functions/src/domains/dermal/failed.ts",
      `import { firestore } from "../../platform/firebase.js";
const col = (uid: string) => firestore().collection("users").doc(uid).collection("sessions");
export async function failedSessions(uid: string, newest: boolean) {
  let q = col(uid).where("status", "==", "failed");
  if (newest) q = q.orderBy("capturedAt", "desc");
  return (await q.limit(5).get()).docs;
}
`,
    );
    const run = deployCheck(root, "--only", "queries");
    expect(run.status).toBe(1);
    expect(run.problems).toEqual([
      "✗ [queries] functions/src/domains/dermal/failed.ts:6: sessions where status == order by capturedAt desc — needs a composite index on sessions (status ASCENDING, capturedAt DESCENDING) with queryScope COLLECTION (add it to firestore.indexes.json)",
    ]);

    // With the index declared, the same code passes (the equality-only variant needs none).
    edit(root, "firestore.indexes.json", (text) => {
      const spec = JSON.parse(text);
      spec.indexes.push({ collectionGroup: "sessions", queryScope: "COLLECTION", fields: [{ fieldPath: "status", order: "ASCENDING" }, { fieldPath: "capturedAt", order: "DESCENDING" }] });
      return JSON.stringify(spec, null, 2);
    });
    expect(deployCheck(root, "--only", "queries,indexes").problems).toEqual([]);
  }, 120_000);

  test("a vector query whose pre-filter has no vector index, and a collection-group query without its override", () => {
    const root = plantedCopy();
    write(
      root,
      "functions/src/domains/knowledge/by-category.ts",
      `import type { Firestore } from "firebase-admin/firestore";
export class CategorySearch {
  constructor(private readonly db: Firestore) {}
  near(uid: string, vector: number[], category: string) {
    return this.db.collection("kb_items").where("owner_uid", "==", uid).where("category", "==", category)
      .findNearest({ vectorField: "embedding", queryVector: vector, limit: 5, distanceMeasure: "COSINE" }).get();
  }
  everywhere(title: string) {
    return this.db.collectionGroup("kb_items").where("title", "==", title).get();
  }
}
`,
    );
    const run = deployCheck(root, "--only", "queries");
    expect(run.problems).toEqual([
      "✗ [queries] functions/src/domains/knowledge/by-category.ts:6: kb_items where owner_uid ==, category == findNearest(embedding) — needs a vector index on kb_items (owner_uid ASCENDING, category ASCENDING, embedding vector) (add it to firestore.indexes.json)",
      "✗ [queries] functions/src/domains/knowledge/by-category.ts:9: group kb_items where title == — needs a collection-group single-field index on kb_items.title (add a fieldOverrides entry with queryScope COLLECTION_GROUP) (add it to firestore.indexes.json)",
    ]);
  }, 120_000);

  test("a function importing a neighbour domain's module: seen in the sources and in what its cold start loads", () => {
    const root = plantedCopy();
    write(root, "functions/src/domains/dermal/kb-link.ts", `import { KB_ITEMS } from "../knowledge/schema.js";\nexport const knowledgeCollection = KB_ITEMS;\n`);
    edit(root, "functions/src/domains/dermal/index.ts", (t) => `import "./kb-link.js";\n${t}`);
    const run = deployCheck(root, "--only", "imports,coldstart", "--no-install");
    expect(run.status).toBe(1);
    expect(run.problems).toContain(
      '✗ [boundary] functions/src/domains/dermal/kb-link.ts:1: domain "dermal" imports functions/src/domains/knowledge/schema.ts of domain "knowledge" (a domain imports mcp/, auth/, platform/, never another domain: its function would load the neighbour\'s code and dependencies)',
    );
    expect(run.problems).toContain("✗ [boundary] function dermal can load the code of domains dermal and knowledge");
    expect(run.problems).toContain("✗ [boundary] function dermal loads the compiled code of domain(s) knowledge at cold start");
  }, 300_000);

  test("the floors: core/ importing a higher floor, and a front file and its adapter importing each other, each fail with the rule named", () => {
    const root = plantedCopy();
    // core/ must import nothing of ours: here it reaches up to mcp/ (a higher floor).
    edit(root, "functions/src/core/errors.ts", (t) => `import { tool } from "../mcp/define.js";\nexport const planted = tool;\n${t}`);
    // A platform adapter importing its own front back: an import circle.
    write(root, "functions/src/platform/embeddings-planted.ts", `import { embedder } from "./embeddings.js";\nexport const again = embedder;\n`);
    edit(root, "functions/src/platform/embeddings.ts", (t) => `import "./embeddings-planted.js";\n${t}`);
    const run = deployCheck(root, "--only", "imports", "--no-install");
    expect(run.status).toBe(1);
    expect(run.out).toContain("floors: core/ < contracts/ < platform/, auth/ < handler/ < mcp/ < http/ < domains/ < index.ts");
    expect(run.problems).toContain(
      "✗ [floor] functions/src/core/errors.ts:1: core/ imports functions/src/mcp/define.ts from mcp/, a higher floor (floors: core/ < contracts/ < platform/, auth/ < handler/ < mcp/ < http/ < domains/ < index.ts): move what both need down to core/ or below",
    );
    expect(run.problems).toContain(
      "✗ [floor] import circle: functions/src/platform/embeddings-planted.ts → functions/src/platform/embeddings.ts → functions/src/platform/embeddings-planted.ts: move what they share into a file of its own",
    );
    // The tree as it is holds the floors.
    const clean = deployCheck(REPO, "--only", "imports", "--no-install");
    expect(clean.problems).toEqual([]);
    expect(clean.out).toContain("floors: core/ < contracts/ < platform/, auth/ < handler/ < mcp/ < http/ < domains/ < index.ts; a file imports only its own floor or below, and nothing imports in a circle: holds");
  }, 120_000);

  test("the desktop agent reaching into a platform module of the functions, past the published definitions", () => {
    const root = plantedCopy();
    write(root, "desktop-agent/src/ocr-direct.ts", `import { TesseractOcr } from "../../functions/src/platform/ocr-tesseract.js";\nexport const ocr = () => new TesseractOcr();\n`);
    write(root, "desktop-agent/src/fine.ts", `import { fotosServer } from "../../functions/src/domains/fotos/published.js";\nimport type { AgentReport } from "../../functions/src/contracts/fotos-agent.js";\nexport const tools = (r?: AgentReport) => [fotosServer.tools.length, r];\n`);
    const run = deployCheck(root, "--only", "imports", "--no-install");
    expect(run.status).toBe(1);
    expect(run.problems).toEqual([
      "✗ [floor] desktop-agent/src/ocr-direct.ts:1: desktop-agent/ imports functions/src/platform/ocr-tesseract.ts: it may import only functions/src/contracts/ and a domain's published definitions (functions/src/domains/<name>/published.ts); publish what it needs there",
    ]);
  }, 120_000);

  test("a secret read without a defineSecret declaration; then declared but not bound; then complete", () => {
    const root = plantedCopy();
    write(root, "functions/src/domains/mermaid/llm-key.ts", `export const llmKey = () => process.env.MERMAID_LLM_API_KEY ?? "";\n`);
    edit(root, "functions/src/domains/mermaid/index.ts", (t) => `import "./llm-key.js";\n${t}`);
    let run = deployCheck(root, "--only", "secrets", "--no-install");
    expect(run.status).toBe(1);
    expect(run.problems).toContain(
      '✗ [secrets] functions/src/domains/mermaid/llm-key.ts:1 reads secret MERMAID_LLM_API_KEY, which is not declared: list it in mermaid\'s `secrets` in functions/src/core/manifest.ts and declare it in SECRETS in functions/src/index.ts (MERMAID_LLM_API_KEY: defineSecret("MERMAID_LLM_API_KEY"))',
    );
    expect(run.problems).toContain("✗ [secrets] secret MERMAID_LLM_API_KEY is not documented: say in docs/deploy.md how to set it (firebase functions:secrets:set MERMAID_LLM_API_KEY)");

    edit(root, "functions/src/index.ts", (t) => t.replace(`const SECRETS`, `const MERMAID_LLM_API_KEY = defineSecret("MERMAID_LLM_API_KEY");\nvoid MERMAID_LLM_API_KEY;\nconst SECRETS`));
    run = deployCheck(root, "--only", "secrets", "--no-install");
    expect(run.problems).toContain(
      "✗ [secrets] functions/src/domains/mermaid/llm-key.ts:1 reads secret MERMAID_LLM_API_KEY, but function mermaid does not bind it: add it to mermaid's `secrets` in functions/src/core/manifest.ts (unbound, it is empty in production)",
    );

    edit(root, "functions/src/index.ts", (t) =>
      t.replace(`const MERMAID_LLM_API_KEY = defineSecret("MERMAID_LLM_API_KEY");\nvoid MERMAID_LLM_API_KEY;\n`, "").replace(`const SECRETS: Record<SecretName, ReturnType<typeof defineSecret>> = {\n`, (m) => `${m}  MERMAID_LLM_API_KEY: defineSecret("MERMAID_LLM_API_KEY"),\n`),
    );
    edit(root, "functions/src/core/manifest.ts", (t) => t.replace(`  mermaid: {\n    serves: "mcp",\n`, (m) => `${m}    secrets: ["MERMAID_LLM_API_KEY"],\n`));
    edit(root, "docs/deploy.md", (t) => `${t}\nMERMAID_LLM_API_KEY: firebase functions:secrets:set MERMAID_LLM_API_KEY\n`);
    run = deployCheck(root, "--only", "secrets", "--no-install");
    expect(run.problems).toEqual([]);
    expect(run.out).toMatch(/^mermaid .*MERMAID_LLM_API_KEY$/m); // the manifest lists the bound secret
    expect(run.out).toContain("MERMAID_LLM_API_KEY: mermaid");
    expect(run.out).toContain("MERMAID_LLM_API_KEY (secret)"); // a defineSecret param
  }, 600_000); // three clean builds

  test("an export named otherwise than its manifest, a manifest without its export, a loader of another folder", () => {
    const root = plantedCopy();
    // The URL and the tokens' audience are the export's name: "dermatology" would serve dermal's
    // domain at a URL no token is minted for.
    edit(root, "functions/src/index.ts", (t) => t.replace(`export const dermal = serve("dermal");`, `export const dermatology = serve("dermal");`));
    edit(root, "functions/src/index.ts", (t) => t.replace(`export const mermaid = serve("mermaid");\n`, ""));
    edit(root, "functions/src/index.ts", (t) => t.replace(`figma: () => import("./domains/figma/index.js")`, `figma: () => import("./domains/fotos/index.js")`));
    const run = deployCheck(root, "--only", "imports", "--no-install");
    expect(run.status).toBe(1);
    const line = (text: string) => readFileSync(join(root, "functions/src/index.ts"), "utf8").split("\n").findIndex((l) => l.includes(text)) + 1;
    expect(run.problems).toEqual([
      `✗ [manifest] functions/src/index.ts:${line("export const dermatology")}: export dermatology serves the manifest "dermal": the export is the function's name, its URL and its tokens' audience, so it must be named as its manifest (export const dermal = serve("dermal"))`,
      `✗ [manifest] functions/src/core/manifest.ts declares "mermaid", but index.ts exports no serve("mermaid"): add export const mermaid = serve("mermaid")`,
      `✗ [manifest] functions/src/index.ts:${line(`figma: () => import`)}: the loader of "figma" imports ./domains/fotos/index.js: a function loads its own folder, ./domains/figma/`,
    ]);
    expect(run.out).toContain("3 manifest problem(s)");
  }, 120_000);

  test("functions/ depending on a package only the root workspace has: the clean build cannot find it", () => {
    const root = plantedCopy();
    write(root, "functions/src/domains/mermaid/browser.ts", `import puppeteer from "puppeteer-core";\nexport const launch = () => puppeteer.launch({});\n`);
    const run = deployCheck(root, "--only", "install,imports", "--no-install");
    expect(run.status).toBe(1);
    expect(run.problems).toContain(
      '✗ [imports] functions/src/domains/mermaid/browser.ts:1 imports "puppeteer-core", but functions/package.json does not list "puppeteer-core" in dependencies: it resolves only through the root workspace, and Cloud Build installs functions/ alone (add it to functions/package.json, then npm run lock:functions)',
    );
    const build = run.problems.find((p) => p.startsWith("✗ [install] predeploy"));
    expect(build).toBeDefined();
    expect(run.out).toMatch(/browser\.ts.*Cannot find module 'puppeteer-core'/);
  }, 300_000);

  test("a lockfile out of step with functions/package.json fails the clean install", () => {
    const root = plantedCopy();
    edit(root, "functions/package.json", (t) => {
      const pkg = JSON.parse(t);
      pkg.dependencies["left-pad"] = "^1.3.0";
      return JSON.stringify(pkg, null, 2);
    });
    const run = deployCheck(root, "--only", "install");
    expect(run.status).toBe(1);
    expect(run.problems[0]).toMatch(/^✗ \[install\] npm ci in functions\/ alone failed \(is package-lock.json in step with package.json\? run npm run lock:functions\)/);
  }, 300_000);

  test("a function without maxInstances fails the limits; a rules syntax error fails the rules step", () => {
    const root = plantedCopy();
    edit(root, "functions/src/core/manifest.ts", (t) => t.replace(/\n\s*maxInstances: \d+,/, "\n"));
    edit(root, "storage.rules", (t) => t.replace("allow read, write: if false;", "allow read, write: if false &&;"));
    const run = deployCheck(root, "--only", "manifest,rules", "--no-install");
    expect(run.problems).toContain("✗ [limits] function dermal leaves maxInstances (without it an open function can scale without bound) to the platform default: set it in its manifest's serving profile (functions/src/core/manifest.ts)");
    expect(run.problems.some((p) => /^✗ \[rules\] storage\.rules:\d+:\d+ /.test(p))).toBe(true);
  }, 300_000);
});
