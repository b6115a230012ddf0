/** The placeholders a saved reply may hold, as a dietitian writes them, and what each becomes. */
export const SAVED_REPLY_PLACEHOLDERS = ['{first name}', '{full name}'] as const;

/**
 * A saved reply with its placeholders filled for one client: {first name} and {full name} (any case,
 * a space, _ or - between the words). A placeholder with nothing to fill, or one we do not know, stays as
 * written, so the dietitian sees it in the box before sending.
 */
export function fillPlaceholders(text: string, client: { firstName: string | null; fullName: string | null }): string {
  return text.replace(/\{\s*(first|full)[\s_-]*name\s*\}/gi, (whole, which: string) => {
    const value = which.toLowerCase() === 'first' ? client.firstName : client.fullName;
    return value?.trim() ? value.trim() : whole;
  });
}
