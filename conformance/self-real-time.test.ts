// The self-test, part real time: see conformance/test-self.ts.

import { test } from 'uvu';
import { selfTests } from './test-self.js';

selfTests('real-time');
test.run();
