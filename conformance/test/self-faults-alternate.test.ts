// The self-test, part faults-alternate: see conformance/test/self-tests.ts.

import { test } from 'uvu';
import { selfTests } from './self-tests.js';

selfTests('faults-alternate');
test.run();
