/**
 * Images in records: {@link org.dataloader4j.image.ImageDecoder} (OneFlow's
 * {@code ofrecord_image_decoder}, with {@link org.dataloader4j.image.RandomCrop} its
 * {@code _random_crop} variant) and {@link org.dataloader4j.image.ImageTransform} (the fused
 * training and evaluation paths) say what to decode; {@link org.dataloader4j.image.ImageParser}
 * decodes them on the parse threads, beside a record parser's other outputs, with an
 * {@link org.dataloader4j.image.ImageCodec} that {@link org.dataloader4j.image.ImageCodecs}
 * picks: libjpeg-turbo and libpng through {@code java.lang.foreign}, or JDK ImageIO. The ops
 * stand alone too: {@link org.dataloader4j.image.ImageResize},
 * {@link org.dataloader4j.image.CoinFlip}.
 */
package org.dataloader4j.image;
