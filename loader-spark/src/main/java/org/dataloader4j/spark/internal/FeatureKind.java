package org.dataloader4j.spark.internal;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/** The list a feature holds, by its name in the record schemas. */
enum FeatureKind {
    BYTES("bytes_list", DataTypes.BinaryType),
    FLOAT("float_list", DataTypes.FloatType),
    DOUBLE("double_list", DataTypes.DoubleType),
    INT32("int32_list", DataTypes.IntegerType),
    INT64("int64_list", DataTypes.LongType),
    /** A feature whose list is not set: no values, and no type. */
    NONE("no list", null);

    private final String listName;
    private final DataType sparkType;

    FeatureKind(String listName, DataType sparkType) {
        this.listName = listName;
        this.sparkType = sparkType;
    }

    /** The Spark type of one value, as schema inference gives it; null for {@link #NONE}. */
    DataType sparkType() {
        return sparkType;
    }

    @Override
    public String toString() {
        return listName;
    }
}
