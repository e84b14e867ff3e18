import { readFileSync } from 'node:fs';
import ts from 'typescript';

/**
 * The doc comments of zod schemas, read from their source, so the JSON Schemas carry the same words
 * as the code (the schemas use `/** … *\/` comments, not `.describe()`, which zod would export by
 * itself). A schema's description is the comment on its `const`; a property's is the comment on the
 * property in its `z.object({ … })` (or `.extend({ … })`), or the comment on the `const` the
 * property is built from (`args: ZControlArgs.optional()`; that one first when the property is the
 * const's very instance, `seq: ZSeq`), or the comment on a spread-in plain object (`...ZForDevice`).
 */

type TPropertySource = {
  doc?: string;
  /** The const it is built from, and whether it is that const's very instance (`seq: ZSeq`). */
  from?: string;
  isShared: boolean;
};
type TConstSource = {
  doc?: string;
  /** Properties of its z.object literal, or of the plain object literal it is. */
  props: Map<string, TPropertySource>;
  /** Names of the plain-object consts spread into its literal (`...ZForDevice`). */
  spreads: string[];
};

const docOf = (node: ts.Node): string | undefined => {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const text = ts.getTextOfJSDocComment(docs.at(-1)?.comment);
  return text ? text.replace(/\s+/g, ' ').trim() : undefined;
};

/** The identifier an expression is built from: `ZSeq` for `ZSeq` and `ZControlArgs.optional()`. */
const rootName = (node: ts.Expression): string | undefined => {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
    return rootName(node.expression.expression);
  }
  return undefined;
};

/** The first (outermost) `z.object({…})` or `X.extend({…})` literal in an initializer. */
const objectLiteralOf = (node: ts.Node): ts.ObjectLiteralExpression | undefined => {
  if (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    ['object', 'extend'].includes(node.expression.name.text) &&
    node.arguments[0] &&
    ts.isObjectLiteralExpression(node.arguments[0])
  ) {
    return node.arguments[0];
  }
  return ts.forEachChild(node, objectLiteralOf);
};

const constsOf = (file: string): Map<string, TConstSource> => {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const consts = new Map<string, TConstSource>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
      const literal = ts.isObjectLiteralExpression(declaration.initializer)
        ? declaration.initializer
        : objectLiteralOf(declaration.initializer);
      const props = new Map<string, TPropertySource>();
      const spreads: string[] = [];
      for (const member of literal?.properties ?? []) {
        if (ts.isPropertyAssignment(member) && ts.isIdentifier(member.name)) {
          props.set(member.name.text, {
            doc: docOf(member),
            from: rootName(member.initializer),
            isShared: ts.isIdentifier(member.initializer),
          });
        } else if (ts.isSpreadAssignment(member) && ts.isIdentifier(member.expression)) {
          spreads.push(member.expression.text);
        }
      }
      consts.set(declaration.name.text, { doc: docOf(declaration), props, spreads });
    }
  }
  return consts;
};

type TZodObjectLike = { shape: Record<string, unknown> };
const hasShape = (value: unknown): value is TZodObjectLike =>
  typeof value === 'object' && value !== null && 'shape' in value && typeof value.shape === 'object';

/**
 * Descriptions by zod schema instance, for the exported schemas of `modules` whose source files are
 * `files`. A schema instance shared by several properties (ZConnectionId, ZReportedState) gets the
 * comment on its own `const` when it has one, so it reads the same wherever it appears.
 */
export const schemaDocs = (files: string[], modules: Record<string, unknown>[]): Map<unknown, string> => {
  const consts = new Map<string, TConstSource>();
  for (const file of files) for (const [name, source] of constsOf(file)) consts.set(name, source);
  const exported = Object.assign({}, ...modules) as Record<string, unknown>;

  const docs = new Map<unknown, string>();
  for (const [name, source] of consts) {
    if (source.doc && exported[name] !== undefined) docs.set(exported[name], source.doc);
  }
  for (const [name, source] of consts) {
    const schema = exported[name];
    if (!hasShape(schema)) continue;
    const describe = (key: string, doc: string | undefined) => {
      const instance = schema.shape[key];
      if (doc && instance !== undefined && !docs.has(instance)) docs.set(instance, doc);
    };
    for (const [key, prop] of source.props) {
      const fromDoc = consts.get(prop.from ?? '')?.doc;
      describe(key, prop.isShared ? (fromDoc ?? prop.doc) : (prop.doc ?? fromDoc));
    }
    for (const spread of source.spreads) {
      const spreadSource = consts.get(spread);
      for (const [key, prop] of spreadSource?.props ?? []) describe(key, prop.doc ?? spreadSource?.doc);
    }
  }
  return docs;
};
