/** The one rejection a test leaves unhandled on purpose (vitest.config.ts lets it through). */
export const DELIBERATE_REJECTION = 'Deliberately unhandled (simulator test)'
