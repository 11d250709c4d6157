/**
 * Test support: locating {@code ../shared/testdata/real} ({@link org.dataloader4j.testkit.SharedTestData}),
 * strict JSON with exact numbers, read through Jackson ({@link org.dataloader4j.testkit.StrictJson}),
 * and the expected values of the real files in typed form
 * ({@link org.dataloader4j.testkit.ExpectedRecords}).
 */
package org.dataloader4j.testkit;
