// SVG geometry the DOM needs to answer like a browser: path bounds and lengths, transforms.
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Matrix = [number, number, number, number, number, number]; // a b c d e f

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

export function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

const num = (s: string | undefined, d = 0) => {
  const v = s === undefined ? NaN : parseFloat(s);
  return Number.isFinite(v) ? v : d;
};

/** Parses an SVG transform attribute into one matrix. */
export function parseTransform(value: string | null | undefined): Matrix {
  if (!value) return IDENTITY;
  let m: Matrix = IDENTITY;
  const re = /(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)/g;
  for (const [, fn, argText] of value.matchAll(re)) {
    const a = (argText ?? "").split(/[\s,]+/).filter(Boolean).map(Number);
    let t: Matrix = IDENTITY;
    switch (fn) {
      case "matrix":
        if (a.length === 6) t = a as Matrix;
        break;
      case "translate":
        t = [1, 0, 0, 1, a[0] ?? 0, a[1] ?? 0];
        break;
      case "scale":
        t = [a[0] ?? 1, 0, 0, a[1] ?? a[0] ?? 1, 0, 0];
        break;
      case "rotate": {
        const r = ((a[0] ?? 0) * Math.PI) / 180;
        const [cx, cy] = [a[1] ?? 0, a[2] ?? 0];
        const cos = Math.cos(r);
        const sin = Math.sin(r);
        t = multiply(multiply([1, 0, 0, 1, cx, cy], [cos, sin, -sin, cos, 0, 0]), [1, 0, 0, 1, -cx, -cy]);
        break;
      }
      case "skewX":
        t = [1, 0, Math.tan(((a[0] ?? 0) * Math.PI) / 180), 1, 0, 0];
        break;
      case "skewY":
        t = [1, Math.tan(((a[0] ?? 0) * Math.PI) / 180), 0, 1, 0, 0];
        break;
    }
    m = multiply(m, t);
  }
  return m;
}

export function transformBox(box: Box, m: Matrix): Box {
  if (m === IDENTITY) return box;
  const pts = [
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x, box.y + box.height],
    [box.x + box.width, box.y + box.height],
  ].map(([x, y]) => [m[0] * x! + m[2] * y! + m[4], m[1] * x! + m[3] * y! + m[5]] as const);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

export function union(boxes: Box[]): Box | undefined {
  let out: Box | undefined;
  for (const b of boxes) {
    if (!Number.isFinite(b.x) || !Number.isFinite(b.y) || !Number.isFinite(b.width) || !Number.isFinite(b.height)) continue;
    if (!out) {
      out = { ...b };
      continue;
    }
    const x = Math.min(out.x, b.x);
    const y = Math.min(out.y, b.y);
    out = { x, y, width: Math.max(out.x + out.width, b.x + b.width) - x, height: Math.max(out.y + out.height, b.y + b.height) - y };
  }
  return out;
}

export function pointsBox(points: [number, number][]): Box {
  if (!points.length) return { x: 0, y: 0, width: 0, height: 0 };
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

export function parsePoints(value: string | null): [number, number][] {
  const n = (value ?? "").split(/[\s,]+/).filter(Boolean).map(Number);
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < n.length; i += 2) out.push([n[i]!, n[i + 1]!]);
  return out;
}

/** A path flattened to polylines (one per subpath): curves and arcs sampled. */
function flattenPath(d: string | null): [number, number][][] {
  const tokens = (d ?? "").match(/[a-zA-Z]|[-+]?(?:\d*\.\d+|\d+\.?)(?:[eE][-+]?\d+)?/g) ?? [];
  const subpaths: [number, number][][] = [];
  let cur: [number, number][] = [];
  let x = 0;
  let y = 0;
  let sx = 0;
  let sy = 0;
  let cmd = "";
  let lastCtrl: [number, number] | undefined;
  let lastCmd = "";
  let i = 0;
  const next = () => num(tokens[i++]);
  const push = (px: number, py: number) => cur.push([px, py]);
  const SAMPLES = 12;
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (/[a-zA-Z]/.test(t)) {
      cmd = t;
      i++;
      if (cmd === "z" || cmd === "Z") {
        push(sx, sy);
        x = sx;
        y = sy;
        lastCmd = cmd;
        continue;
      }
    } else if (!cmd) {
      i++;
      continue;
    }
    const rel = cmd === cmd.toLowerCase();
    const C = cmd.toUpperCase();
    const ox = rel ? x : 0;
    const oy = rel ? y : 0;
    const before = i;
    switch (C) {
      case "M": {
        x = ox + next();
        y = oy + next();
        if (cur.length) subpaths.push(cur);
        cur = [[x, y]];
        sx = x;
        sy = y;
        cmd = rel ? "l" : "L";
        break;
      }
      case "L":
        x = ox + next();
        y = oy + next();
        push(x, y);
        break;
      case "H":
        x = ox + next();
        push(x, y);
        break;
      case "V":
        y = oy + next();
        push(x, y);
        break;
      case "C":
      case "S":
      case "Q":
      case "T": {
        let c1: [number, number];
        let c2: [number, number];
        let end: [number, number];
        const reflect = (): [number, number] => (lastCtrl && /[CSQT]/i.test(lastCmd) ? [2 * x - lastCtrl[0], 2 * y - lastCtrl[1]] : [x, y]);
        if (C === "C") {
          c1 = [ox + next(), oy + next()];
          c2 = [ox + next(), oy + next()];
          end = [ox + next(), oy + next()];
        } else if (C === "S") {
          c1 = reflect();
          c2 = [ox + next(), oy + next()];
          end = [ox + next(), oy + next()];
        } else if (C === "Q") {
          const q = [ox + next(), oy + next()] as [number, number];
          end = [ox + next(), oy + next()];
          c1 = [x + (2 / 3) * (q[0] - x), y + (2 / 3) * (q[1] - y)];
          c2 = [end[0] + (2 / 3) * (q[0] - end[0]), end[1] + (2 / 3) * (q[1] - end[1])];
          lastCtrl = q;
        } else {
          const q = reflect();
          end = [ox + next(), oy + next()];
          c1 = [x + (2 / 3) * (q[0] - x), y + (2 / 3) * (q[1] - y)];
          c2 = [end[0] + (2 / 3) * (q[0] - end[0]), end[1] + (2 / 3) * (q[1] - end[1])];
          lastCtrl = q;
        }
        for (let s = 1; s <= SAMPLES; s++) {
          const u = s / SAMPLES;
          const v = 1 - u;
          push(
            v * v * v * x + 3 * v * v * u * c1[0] + 3 * v * u * u * c2[0] + u * u * u * end[0],
            v * v * v * y + 3 * v * v * u * c1[1] + 3 * v * u * u * c2[1] + u * u * u * end[1],
          );
        }
        if (C === "C" || C === "S") lastCtrl = c2;
        [x, y] = end;
        break;
      }
      case "A": {
        const rx0 = Math.abs(next());
        const ry0 = Math.abs(next());
        const phi = (next() * Math.PI) / 180;
        const large = next() !== 0;
        const sweep = next() !== 0;
        const ex = ox + next();
        const ey = oy + next();
        arcPoints(x, y, rx0, ry0, phi, large, sweep, ex, ey, SAMPLES * 2).forEach(([px, py]) => push(px, py));
        x = ex;
        y = ey;
        break;
      }
      default:
        i++;
    }
    lastCmd = C;
    if (i === before) i++; // never loop on a malformed token
  }
  if (cur.length) subpaths.push(cur);
  return subpaths;
}

function arcPoints(x1: number, y1: number, rx: number, ry: number, phi: number, large: boolean, sweep: boolean, x2: number, y2: number, n: number): [number, number][] {
  if (rx === 0 || ry === 0 || (x1 === x2 && y1 === y2)) return [[x2, y2]];
  const cos = Math.cos(phi);
  const sin = Math.sin(phi);
  const dx = (x1 - x2) / 2;
  const dy = (y1 - y2) / 2;
  const x1p = cos * dx + sin * dy;
  const y1p = -sin * dx + cos * dy;
  const lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry);
  if (lambda > 1) {
    rx *= Math.sqrt(lambda);
    ry *= Math.sqrt(lambda);
  }
  const sign = large === sweep ? -1 : 1;
  const numer = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p;
  const coef = sign * Math.sqrt(Math.max(0, numer / (rx * rx * y1p * y1p + ry * ry * x1p * x1p)));
  const cxp = (coef * rx * y1p) / ry;
  const cyp = (-coef * ry * x1p) / rx;
  const cx = cos * cxp - sin * cyp + (x1 + x2) / 2;
  const cy = sin * cxp + cos * cyp + (y1 + y2) / 2;
  const angle = (ux: number, uy: number, vx: number, vy: number) => {
    const a = Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
    return a;
  };
  const t1 = angle(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry);
  let dt = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry);
  if (!sweep && dt > 0) dt -= 2 * Math.PI;
  if (sweep && dt < 0) dt += 2 * Math.PI;
  const out: [number, number][] = [];
  for (let s = 1; s <= n; s++) {
    const t = t1 + (dt * s) / n;
    out.push([cx + rx * Math.cos(t) * cos - ry * Math.sin(t) * sin, cy + rx * Math.cos(t) * sin + ry * Math.sin(t) * cos]);
  }
  return out;
}

export function pathBox(d: string | null): Box {
  return pointsBox(flattenPath(d).flat());
}

function polylineLength(points: [number, number][]): number {
  let len = 0;
  for (let i = 1; i < points.length; i++) len += Math.hypot(points[i]![0] - points[i - 1]![0], points[i]![1] - points[i - 1]![1]);
  return len;
}

export function pathLength(d: string | null): number {
  return flattenPath(d).reduce((sum, p) => sum + polylineLength(p), 0);
}

export function pointAtLength(d: string | null, at: number): { x: number; y: number } {
  const paths = flattenPath(d);
  let remaining = Math.max(0, at);
  let last: [number, number] = [0, 0];
  for (const p of paths) {
    if (p.length) last = p[0]!;
    for (let i = 1; i < p.length; i++) {
      const a = p[i - 1]!;
      const b = p[i]!;
      const seg = Math.hypot(b[0] - a[0], b[1] - a[1]);
      if (remaining <= seg && seg > 0) {
        const u = remaining / seg;
        return { x: a[0] + (b[0] - a[0]) * u, y: a[1] + (b[1] - a[1]) * u };
      }
      remaining -= seg;
      last = b;
    }
  }
  return { x: last[0], y: last[1] };
}
