// The self-test, part catalog: see conformance/test-self.ts.

import { test } from 'uvu';
import { selfTests } from './test-self.js';

selfTests('catalog');
test.run();
