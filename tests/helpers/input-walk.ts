import type { ZodType } from 'zod';

/**
 * Walks a zod (v4) input schema for the fuzz test: the paths of its leaf
 * fields, and a best-effort valid example to put bad values into, so a bad
 * value in one field is not hidden behind a missing other field.
 */

export type Path = (string | number)[];
export type Leaf = {
  path: Path /** Values other fields must have for this leaf to be checked (a union's discriminator). */;
  base: unknown;
};

type Def = { type: string; [key: string]: any };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch', 'success']);

function unwrap(s: ZodType): ZodType {
  let cur = s;
  for (;;) {
    const d = defOf(cur);
    if (WRAPPERS.has(d.type)) cur = d.innerType;
    else if (d.type === 'lazy') cur = d.getter();
    else if (d.type === 'pipe') cur = isContainer(d.in) ? d.in : d.out;
    else return cur;
  }
}

function isContainer(s: ZodType): boolean {
  const d = defOf(s);
  if (WRAPPERS.has(d.type)) return isContainer(d.innerType);
  if (d.type === 'pipe') return isContainer(d.in) || isContainer(d.out);
  if (d.type === 'union') return (d.options as ZodType[]).some(isContainer);
  return d.type === 'object' || d.type === 'array';
}

export function setAt(base: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(base) ? [...base] : base && typeof base === 'object' ? { ...base } : typeof head === 'number' ? [] : {};
  copy[head as never] = setAt(copy[head as never], rest, value);
  return copy;
}

/** Every leaf field of an input schema (array elements as index 0). */
export function leavesOf(schema: ZodType): Leaf[] {
  const out = new Map<string, Leaf>();
  const walk = (s: ZodType, path: Path, base: unknown) => {
    const u = unwrap(s);
    const d = defOf(u);
    if (d.type === 'object') {
      for (const [key, field] of Object.entries(d.shape as Record<string, ZodType>)) walk(field, [...path, key], base);
    } else if (d.type === 'array') {
      walk(d.element, [...path, 0], base);
    } else if (d.type === 'union' && (d.options as ZodType[]).some(isContainer)) {
      for (const option of d.options as ZodType[]) {
        const od = defOf(unwrap(option));
        let b = base;
        if (od.type === 'object' && d.discriminator) {
          const disc = defOf(unwrap(od.shape[d.discriminator]));
          if (disc.type === 'literal') b = setAt(base, [...path, d.discriminator], disc.values[0]);
        }
        walk(option, path, b);
      }
    } else {
      const key = `${JSON.stringify(path)}|${JSON.stringify(base)}`;
      if (!out.has(key)) out.set(key, { path, base });
    }
  };
  walk(schema, [], undefined);
  return [...out.values()];
}

/** A tiny PDF-looking base64 string (the server checks the content and refuses it politely). */
const TINY_BASE64 = Buffer.from('%PDF-1.4\n%fuzz\n').toString('base64');

function stringFor(key: string): string {
  const k = key.toLowerCase();
  if (k.includes('email') || k === 'to') return 'fuzz@example.test';
  if (k === 'from' || k === 'to' || k.includes('date')) return '2026-01-15';
  if (k === 'time') return '08:30';
  if (k === 'contact' || k === 'phone') return '9876543210';
  if (k.includes('password')) return 'a-long-password-1';
  if (k.includes('base64')) return TINY_BASE64;
  return 'Test text';
}

function numberFor(key: string): number {
  const k = key.toLowerCase();
  if (k === 'country') return 356;
  if (k === 'grams' || k === 'ml') return 100;
  if (k === 'height') return 1.6;
  if (k.includes('weight')) return 60;
  if (k === 'age') return 30;
  return 1;
}

/** A plausible value for the schema: required fields filled, optional ones left out. */
export function exampleOf(schema: ZodType, key = ''): unknown {
  const d = defOf(schema);
  switch (d.type) {
    case 'optional':
    case 'default':
    case 'prefault':
      return undefined;
    case 'nullable':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return exampleOf(d.innerType, key);
    case 'lazy':
      return exampleOf(d.getter(), key);
    case 'pipe':
      return defOf(d.out).type === 'transform' ? exampleOf(d.in, key) : exampleOf(d.out, key);
    case 'object': {
      const obj: Record<string, unknown> = {};
      for (const [k, field] of Object.entries(d.shape as Record<string, ZodType>)) {
        const v = exampleOf(field, k);
        if (v !== undefined) obj[k] = v;
      }
      return obj;
    }
    case 'array':
      return [exampleOf(d.element, key)];
    case 'union':
      return exampleOf(d.options[0], key);
    case 'literal':
      return d.values[0];
    case 'enum':
      return Object.values(d.entries)[0];
    case 'boolean':
      return true;
    case 'string':
      return stringFor(key);
    case 'number':
      return numberFor(key);
    case 'unknown':
    case 'any':
      return numberFor(key);
    default:
      return undefined;
  }
}
