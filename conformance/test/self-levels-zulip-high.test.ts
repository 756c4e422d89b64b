// The self-test, part levels in Zulip dialect, the upper half: see conformance/test/self-tests.ts.

import { test } from 'uvu';
import { selfTests } from './self-tests.js';

selfTests('levels-zulip-high');
test.run();
