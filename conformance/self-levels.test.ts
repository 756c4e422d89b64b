// The self-test, part levels: see conformance/test-self.ts.

import { test } from 'uvu';
import { selfTests } from './test-self.js';

selfTests('levels');
test.run();
