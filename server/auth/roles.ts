/** Login role ids: the spec fixes client = 2; dietitians (admins) are 1. */
export const ROLE = { admin: 1, client: 2 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];
export const roleName = (role: number) => (role === ROLE.admin ? 'admin' : 'client');
