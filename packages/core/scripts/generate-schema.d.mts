/** One schema to generate. */
export interface SchemaSpec {
  file: string;
  source: string;
  type: string;
  title: string;
}
export const SCHEMAS: readonly SchemaSpec[];
export function generateSchema(spec: SchemaSpec): Record<string, unknown>;
export function schemaText(schema: unknown): string;
