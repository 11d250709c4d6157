/**
 * Where a dataset's files are kept, for every reader and connector alike: the {@link
 * org.dataloader4j.format.store.FileStore} interface (listing part files, length and
 * modification time, read-ahead streams, many ranges in one read), the local file system as
 * one store, and the {@link org.dataloader4j.format.store.FileStoreProvider}s found at run time
 * for other schemes ({@code hdfs://}, {@code s3a://} through loader-hadoop).
 */
package org.dataloader4j.format.store;
