/** The build's id (vite.config.ts `define`): the persisted query cache of another build is dropped (its `buster`). */
declare const __BUILD_ID__: string;
