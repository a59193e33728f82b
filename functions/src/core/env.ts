// Numeric settings from the environment, checked once at cold start: a typo such as "10s" fails
// the instance loudly instead of turning every timeout or limit into NaN.
export function envNumber(name: string, fallback: number, { min = 0 }: { min?: number } = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}, not "${raw}"`);
  return value;
}
