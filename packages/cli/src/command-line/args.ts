import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CliError } from './errors.js';

/** One command-line option, described as data: the parser and the help text are both made from it. */
export interface OptionSpec {
  /** Long name without dashes, e.g. `output` for `--output`. */
  name: string;
  /** One-letter alias, e.g. `o`. */
  short?: string;
  type: 'string' | 'boolean';
  /** May be given more than once (values are collected in a list). */
  multiple?: boolean;
  /** Placeholder shown in help, e.g. `DIR`. */
  value?: string;
  description: string;
}

/** Parsed options: strings, booleans, or string lists for `multiple` options. Absent options are missing. */
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** The result of parsing a command line against a list of options. */
export interface ParsedArgs {
  options: OptionValues;
  positionals: string[];
}

/**
 * Parses arguments against option specs. Unknown options and missing values are usage errors (exit 2).
 *
 * @param args The arguments after the command name.
 * @param specs The options the command accepts.
 * @param command Command name, for the hint in error messages.
 */
export function parseCommandLine(
  args: readonly string[],
  specs: readonly OptionSpec[],
  command: string,
): ParsedArgs {
  const config: NonNullable<Parameters<typeof parseArgs>[0]>['options'] = {};
  for (const spec of specs) {
    config[spec.name] = {
      type: spec.type,
      ...(spec.short ? { short: spec.short } : {}),
      ...(spec.multiple ? { multiple: true } : {}),
    };
  }
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: config,
      allowPositionals: true,
      strict: true,
    });
    return { options: values as OptionValues, positionals };
  } catch (error) {
    // Project folders are named like options (`-home-me-app`): point at the way to name them.
    const folder = args.find((arg) => /^-[^-]./.test(arg) && existsSync(arg));
    const hint = folder
      ? `To read the folder ${folder}, write ./${folder} (or put it after --).`
      : `Run \`cctrail ${command} --help\` for the options.`;
    throw new CliError(usageMessage(error), { hint });
  }
}

/** Turns a `parseArgs` error into a short sentence. */
function usageMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}`;
  const missing = /Option '([^']+)' argument missing/.exec(message);
  if (missing) return `option ${missing[1]?.replace(/ <value>$/, '')} needs a value`;
  const ambiguous = /Option '([^']+)' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const name = ambiguous[1]?.split(' ')[0];
    return `the value of ${name} starts with "-": write it as ${name}=VALUE (e.g. ${name}=-home-me-app)`;
  }
  const positional = /Unexpected argument '([^']+)'/.exec(message);
  if (positional) return `unexpected argument ${positional[1]}`;
  return message.split('\n')[0] ?? message;
}

/** Reads a string option (the last one when given several times). */
export function stringOption(options: OptionValues, name: string): string | undefined {
  const value = options[name];
  if (Array.isArray(value)) return value[value.length - 1];
  return typeof value === 'string' ? value : undefined;
}

/** Reads a repeatable string option as a list; `a,b` is split on commas too. */
export function listOption(options: OptionValues, name: string): string[] {
  const value = options[name];
  const raw = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return raw
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/** Reads a boolean option. */
export function flag(options: OptionValues, name: string): boolean {
  return options[name] === true;
}

/** Renders the option list of a help page, aligned in two columns. */
export function formatOptions(specs: readonly OptionSpec[]): string {
  const rows = specs.map((spec) => {
    const names = `${spec.short ? `-${spec.short}, ` : '    '}--${spec.name}${spec.value ? ` ${spec.value}` : ''}`;
    return [names, spec.description + (spec.multiple ? '; repeatable' : '')] as const;
  });
  const width = Math.max(...rows.map(([names]) => names.length));
  return rows.map(([names, text]) => `  ${names.padEnd(width)}  ${text}`).join('\n');
}
