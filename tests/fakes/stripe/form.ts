// Stripe's request encoding: `application/x-www-form-urlencoded` with bracket notation, as the SDK
// writes it (`line_items[0][price]=price_x&expand[0]=data.product&metadata[account_id]=a1`),
// decoded into nested objects and arrays. Values stay strings; `params.ts` reads them as types.

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Params = { [key: string]: FormValue };

export function decodeStripeForm(text: string): Params {
  const root: Params = {};
  for (const pair of text.split("&")) {
    if (!pair) continue;
    const separator = pair.indexOf("=");
    const rawKey = separator === -1 ? pair : pair.slice(0, separator);
    const rawValue = separator === -1 ? "" : pair.slice(separator + 1);
    const key = decodeURIComponent(rawKey.replace(/\+/g, " "));
    const value = decodeURIComponent(rawValue.replace(/\+/g, " "));
    assign(root, keySegments(key), value);
  }
  return arraysFromIndexes(root, "") as Params;
}

/** `a[b][0]` → ["a", "b", "0"]; `a[]` → ["a", ""]. */
function keySegments(key: string): string[] {
  const open = key.indexOf("[");
  if (open === -1) return [key];
  const segments = [key.slice(0, open)];
  for (const match of key.slice(open).matchAll(/\[([^\]]*)\]/g)) segments.push(match[1] ?? "");
  return segments;
}

type Node = { [key: string]: FormValue | Node };

function assign(container: Node, segments: string[], value: string) {
  let node = container;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    // `list[]=a&list[]=b` appends: give each one the next free index.
    const name = segment === "" ? String(Object.keys(node).length) : segment;
    if (last) {
      node[name] = value;
      return;
    }
    const next = node[name];
    if (typeof next !== "object" || next === null) node[name] = {};
    node = node[name] as Node;
  });
}

/** Objects keyed 0..n-1 become arrays, except inside `metadata`, whose keys are the caller's own. */
function arraysFromIndexes(value: FormValue | Node, parentKey: string): FormValue {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value;
  const entries = Object.entries(value).map(
    ([key, child]) => [key, parentKey === "metadata" ? child : arraysFromIndexes(child, key)] as const,
  );
  const indexed = parentKey !== "metadata" && entries.length > 0 && entries.every(([key]) => /^\d+$/.test(key));
  if (indexed) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, child]) => child as FormValue);
  }
  return Object.fromEntries(entries) as FormValue;
}
