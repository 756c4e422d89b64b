// The command line's tests, part 2 of two: see conformance/test/cli-tests.ts.

process.env.TEAMCHAT_CLI_PART = '2';
await import('./cli-tests.js');
