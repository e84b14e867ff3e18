/**
 * JSON text for generated files, printed exactly as `biome format` prints JSON with biome.json's
 * settings (2 spaces, 110 columns), so `npm run lint` passes on them as written and the tests can
 * compare the files byte for byte. Biome keeps a non-empty object expanded, one key a line, and puts
 * an array on one line when it holds no non-empty object and the line, with its comma, fits.
 */

const LINE_WIDTH = 110;
const INDENT = '  ';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The one-line form of a value, or null when biome would never print it on one line. */
const inline = (value: unknown): string | null => {
  if (Array.isArray(value)) {
    const items = value.map(inline);
    return items.every((item) => item !== null) ? `[${items.join(', ')}]` : null;
  }
  if (isObject(value)) return Object.keys(value).length === 0 ? '{}' : null;
  return JSON.stringify(value);
};

/** `value` printed at `indent`, starting at `column`, with `trailing` characters after it on its line. */
const print = (value: unknown, indent: string, column: number, trailing: number): string => {
  const flat = inline(value);
  if (flat !== null && (!Array.isArray(value) || column + flat.length + trailing <= LINE_WIDTH)) return flat;
  const inner = indent + INDENT;
  if (Array.isArray(value)) {
    const items = value.map(
      (item, i) => `${inner}${print(item, inner, inner.length, i < value.length - 1 ? 1 : 0)}`,
    );
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const lines = entries.map(([key, item], i) => {
    const prefix = `${inner}${JSON.stringify(key)}: `;
    return `${prefix}${print(item, inner, prefix.length, i < entries.length - 1 ? 1 : 0)}`;
  });
  return `{\n${lines.join(',\n')}\n${indent}}`;
};

/**
 * `value` as biome-formatted JSON text with a trailing newline. Keys keep their insertion order, so
 * the output is as stable as the value; `undefined` properties are left out, as JSON.stringify does.
 */
export const jsonText = (value: unknown): string => `${print(JSON.parse(JSON.stringify(value)), '', 0, 0)}\n`;
