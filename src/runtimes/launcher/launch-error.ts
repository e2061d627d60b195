/** A start that cannot go on, for a reason the user can act on: said without a stack trace. */
export class LaunchError extends Error {}
