// The self-test, part faults-alternate: see conformance/test-self.ts.

import { test } from 'uvu';
import { selfTests } from './test-self.js';

selfTests('faults-alternate');
test.run();
