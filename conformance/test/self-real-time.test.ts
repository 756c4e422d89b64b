// The self-test, part real time: see conformance/test/self-tests.ts.

import { test } from 'uvu';
import { selfTests } from './self-tests.js';

selfTests('real-time');
test.run();
