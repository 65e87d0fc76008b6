/** The stylesheet `main.tsx` imports for its effect alone: the console's build bundles it (scripts/build-console.ts). */
declare module '*.css';
