// The command line's tests, part 1 of two: see conformance/test/cli-tests.ts.

process.env.TEAMCHAT_CLI_PART = '1';
await import('./cli-tests.js');
