// Evaluated in a task of its own ahead of a form screen (FORM_LIBRARIES in lazy-with-data.tsx).
// The same import the shared schemas make, so the bundle keeps what it kept before, nothing more.
export { z } from 'zod';
