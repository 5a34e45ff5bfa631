// The budget of an installation of cctrail (issue #17), checked by `measure-install.mjs` and the installed tests.

/** The installed size allowed, in bytes (40 MB). */
export const SIZE_BUDGET = 40_000_000;
