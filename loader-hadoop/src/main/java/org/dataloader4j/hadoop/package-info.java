/**
 * The Hadoop {@code FileSystem} as a {@link org.dataloader4j.format.store.FileStore}:
 * {@link org.dataloader4j.hadoop.HadoopFileStore} and the provider that the readers find through
 * {@link java.util.ServiceLoader} for every scheme but {@code file}.
 */
package org.dataloader4j.hadoop;
