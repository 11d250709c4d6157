/**
 * The {@code loader} command and its subcommands ({@code demo}, {@code inspect}, {@code verify},
 * {@code convert}, {@code index}, {@code bench}, {@code preview}, {@code soak}, {@code state}); {@link org.dataloader4j.cli.Loader#main} is
 * what the {@code ./loader} script starts.
 */
package org.dataloader4j.cli;
