// Which index production needs for a query shape, and whether firestore.indexes.json has it.
// Follows Firestore's index rules: equality / array filters alone are served by merging the
// automatic single-field indexes; one field (filtered and/or ordered) by its single-field index;
// anything else (equality + order, ranges on one field ordered by another, several ranges) by a
// composite index whose fields are the equality fields (any order) then the orderings, with
// inequality fields implicitly ordered after the explicit ones; vector queries by a vector index
// holding every pre-filter field, then the vector field. Collection-group queries get no
// automatic single-field index: they need a field override with COLLECTION_GROUP scope. A field
// override replaces the automatic single-field indexes of that field (e.g. `indexes: []`).
import type { QueryShape } from "./queries.js";

export interface IndexField {
  fieldPath: string;
  order?: "ASCENDING" | "DESCENDING";
  arrayConfig?: "CONTAINS";
  vectorConfig?: { dimension: number; flat: object };
}
export interface IndexSpec {
  collectionGroup: string;
  queryScope: "COLLECTION" | "COLLECTION_GROUP";
  fields: IndexField[];
}
export interface FieldOverride {
  collectionGroup: string;
  fieldPath: string;
  ttl?: boolean;
  indexes: { order?: string; arrayConfig?: string; queryScope?: string }[];
}
export interface IndexFile {
  indexes: IndexSpec[];
  fieldOverrides?: FieldOverride[];
}

const EQUALITY = new Set(["==", "in"]);
const ARRAY = new Set(["array-contains", "array-contains-any"]);
const INEQUALITY = new Set(["<", "<=", ">", ">=", "!=", "not-in"]);

/** A sentence saying what is missing, or null when the declared indexes serve the query. */
export function missingIndex(shape: QueryShape, spec: IndexFile): string | null {
  const unknownOp = shape.filters.find((f) => !EQUALITY.has(f.op) && !ARRAY.has(f.op) && !INEQUALITY.has(f.op));
  if (unknownOp) return `unknown filter operator "${unknownOp.op}" on ${unknownOp.field}`;
  // The document id is the implicit last ordering of every index: filters and orderings on it
  // need nothing more.
  const filters = shape.filters.filter((f) => f.field !== "__name__");
  const eq = new Set(filters.filter((f) => EQUALITY.has(f.op)).map((f) => f.field));
  const arr = new Set(filters.filter((f) => ARRAY.has(f.op)).map((f) => f.field));
  const ineq = [...new Set(filters.filter((f) => INEQUALITY.has(f.op)).map((f) => f.field))];
  const explicit = shape.orders.filter((o) => o.field !== "__name__" && !eq.has(o.field));
  const implicit = ineq.filter((f) => !explicit.some((o) => o.field === f)).sort();
  const orders = [...explicit.map((o) => ({ field: o.field, dir: o.dir as string | null })), ...implicit.map((field) => ({ field, dir: null }))];
  const same = (i: IndexSpec) => i.collectionGroup === shape.collection && i.queryScope === shape.scope;

  if (shape.vector) {
    if (shape.orders.length) return "findNearest cannot be combined with orderBy";
    const prefilter = new Set([...eq, ...arr, ...ineq]);
    const ok = spec.indexes.some((i) => {
      if (!same(i)) return false;
      const last = i.fields[i.fields.length - 1];
      if (!last?.vectorConfig || last.fieldPath !== shape.vector) return false;
      const rest = i.fields.slice(0, -1);
      if (rest.length !== prefilter.size) return false;
      return rest.every((f) => prefilter.has(f.fieldPath) && (arr.has(f.fieldPath) ? f.arrayConfig === "CONTAINS" : !!f.order));
    });
    return ok ? null : `needs a vector index on ${shape.collection} (${describe([...eq, ...ineq].map((f) => `${f} ASCENDING`), [...arr].map((f) => `${f} CONTAINS`))}${prefilter.size ? ", " : ""}${shape.vector} vector)`;
  }

  const singleField = (field: string, kind: { order?: string | null; array?: boolean }): boolean => {
    const override = spec.fieldOverrides?.find((o) => o.collectionGroup === shape.collection && o.fieldPath === field);
    if (!override) return shape.scope === "COLLECTION"; // automatic indexes exist for collections only
    return override.indexes.some(
      (x) =>
        (x.queryScope ?? "COLLECTION") === shape.scope &&
        (kind.array ? x.arrayConfig === "CONTAINS" : !!x.order && (!kind.order || x.order === kind.order)),
    );
  };

  const fields = new Set([...eq, ...arr, ...orders.map((o) => o.field)]);
  if (orders.length === 0 || (fields.size === 1 && orders.length === 1)) {
    // Served by single-field indexes (merged for several equalities) — if they exist.
    const missing = [
      ...[...eq].filter((f) => !(orders[0]?.field === f ? singleField(f, { order: orders[0].dir }) : singleField(f, {}))),
      ...[...arr].filter((f) => !singleField(f, { array: true })),
      ...orders.filter((o) => !eq.has(o.field) && !singleField(o.field, { order: o.dir })).map((o) => o.field),
    ];
    if (!missing.length) return null;
    const scope = shape.scope === "COLLECTION_GROUP" ? "collection-group " : "";
    return `needs a ${scope}single-field index on ${shape.collection}.${missing.join(", ")} (add a fieldOverrides entry with queryScope ${shape.scope})`;
  }

  const ok = spec.indexes.some((i) => {
    if (!same(i) || i.fields.some((f) => f.vectorConfig)) return false;
    let fs = i.fields;
    if (fs[fs.length - 1]?.fieldPath === "__name__") fs = fs.slice(0, -1);
    const head = fs.slice(0, fs.length - orders.length);
    const tail = fs.slice(fs.length - orders.length);
    if (head.length !== eq.size + arr.size) return false;
    const headOk = head.every((f) => (arr.has(f.fieldPath) ? f.arrayConfig === "CONTAINS" : eq.has(f.fieldPath) && !!f.order));
    const tailOk = tail.every((f, k) => f.fieldPath === orders[k]!.field && !!f.order && (orders[k]!.dir === null || f.order === orders[k]!.dir));
    return headOk && tailOk;
  });
  if (ok) return null;
  return `needs a composite index on ${shape.collection} (${describe(
    [...eq].map((f) => `${f} ASCENDING`),
    [...arr].map((f) => `${f} CONTAINS`),
    orders.map((o) => `${o.field} ${o.dir ?? "ASCENDING"}`),
  )}) with queryScope ${shape.scope}`;
}

const describe = (...parts: string[][]) => parts.flat().join(", ");

/** One line for a shape: `kb_items where owner_uid ==, tags array-contains order by created_at desc`. */
export function formatShape(s: QueryShape): string {
  const parts = [`${s.scope === "COLLECTION_GROUP" ? "group " : ""}${s.collection}`];
  if (s.filters.length) parts.push(`where ${s.filters.map((f) => `${f.field} ${f.op}`).join(", ")}`);
  if (s.orders.length) parts.push(`order by ${s.orders.map((o) => `${o.field} ${o.dir === "DESCENDING" ? "desc" : "asc"}`).join(", ")}`);
  if (s.vector) parts.push(`findNearest(${s.vector})`);
  if (s.aggregate) parts.push("count");
  return parts.join(" ");
}
