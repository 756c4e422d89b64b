// The self-test, part faults-zulip: see conformance/test/self-tests.ts.

import { test } from 'uvu';
import { selfTests } from './self-tests.js';

selfTests('faults-zulip');
test.run();
