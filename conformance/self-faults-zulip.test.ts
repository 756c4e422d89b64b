// The self-test, part faults-zulip: see conformance/test-self.ts.

import { test } from 'uvu';
import { selfTests } from './test-self.js';

selfTests('faults-zulip');
test.run();
