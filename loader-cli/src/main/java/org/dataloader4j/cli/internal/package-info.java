/**
 * The parts the commands share: format detection, record scanning and decoding, record text and
 * JSON, the JSON of saved states, schemas, progress bars, exit codes; and the CSV and image-folder converters.
 */
package org.dataloader4j.cli.internal;
