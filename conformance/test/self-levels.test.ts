// The self-test, part levels: see conformance/test/self-tests.ts.

import { test } from 'uvu';
import { selfTests } from './self-tests.js';

selfTests('levels');
test.run();
