// Evaluated in a task of its own ahead of a form screen (FORM_HOOKS in lazy-with-data.tsx).
export { useForm } from 'react-hook-form';
