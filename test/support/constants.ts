/** Shared by vitest.config.ts (Node) and the tests (workerd): the fixed facts of the test service. */
export const TEST_PORT = 8787;
export const TEST_ADMIN_TOKEN = 'lpa_test-admin-token-0123456789abcdef';
export const TEST_ALLOWED_ORIGIN = 'http://app.localhost:3000';
export const BASE_URL = `http://127.0.0.1:${TEST_PORT}`;
