/**
 * History holds the user's tasks, the models' answers, tool outputs and file contents: readable by the user
 * alone (files 0600, folders 0700), like a key store, whatever the umask.
 */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;
