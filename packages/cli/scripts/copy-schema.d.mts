/** The schema files the cli publishes, each the same file as core's. */
export const SCHEMA_FILES: readonly string[];
/** The path of one of core's schema files. */
export function coreSchemaPath(file: string): string;
