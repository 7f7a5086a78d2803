/**
 * The whole Mantine stylesheet (layered, like mantine-shell.css), for the screens beyond the first visit's. Loaded by
 * the router before any such screen renders (router.tsx) and, once the page has loaded, in the background (main.tsx).
 */
import '@mantine/core/styles.layer.css';
