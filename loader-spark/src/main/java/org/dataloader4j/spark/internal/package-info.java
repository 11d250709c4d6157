/**
 * The sources' table, scan, readers and writers, the row codecs of both formats, the listing
 * and the commit of part files; not part of the API.
 */
package org.dataloader4j.spark.internal;
