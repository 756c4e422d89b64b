// The self-test, part levels in the alternate dialect: see conformance/test/self-tests.ts.

import { test } from 'uvu';
import { selfTests } from './self-tests.js';

selfTests('levels-alternate');
test.run();
