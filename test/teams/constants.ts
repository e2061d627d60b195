/** The host name the team service under test answers to (LPA_TEAM_HOSTNAMES). */
export const TEAM_TEST_HOST = 'teams.lpa.test';
export const TEAM_BASE_URL = `https://${TEAM_TEST_HOST}`;
export const TEAM_TEST_OPERATOR_TOKEN = 'lpa_op_test-operator-token-0123456789';
/** 32 bytes of base64: the key-encryption key of the tests' teams. */
export const TEAM_TEST_WRAP_KEY = 'dGVhbS10ZXN0LWtleS1lbmNyeXB0aW9uLWtleS0zMmI=';
