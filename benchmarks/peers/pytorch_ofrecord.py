#!/usr/bin/env python3
"""A PyTorch DataLoader over the MNIST-like OFRecord part files that Compare writes.

A map-style Dataset indexes every record once (each frame is an 8-byte little-endian length
and the payload), maps the files in each worker, and parses a record with the protobuf
runtime into numpy arrays; DataLoader shuffles, batches (default collate) and runs the
workers. The OFRecord message class is built at run time from a descriptor, so no protoc is
needed. Prints the same RESULT line as Compare: the median of the timed epochs after the
warm-up ones, MB = 10^6 payload bytes (from the dataset's manifest).
"""
import argparse
import mmap
import os
import statistics
import struct
import sys
import time

import numpy as np
import torch
from google.protobuf import descriptor_pb2, descriptor_pool
from torch.utils.data import DataLoader, Dataset

try:
    from google.protobuf.message_factory import GetMessageClass
except ImportError:  # protobuf < 4
    GetMessageClass = None
    from google.protobuf import message_factory


def ofrecord_class():
    """OneFlow's OFRecord (record.proto), wire-identical, built from a descriptor."""
    f = descriptor_pb2.FileDescriptorProto(name="oneflow_record.proto", package="oneflow", syntax="proto2")
    fd = descriptor_pb2.FieldDescriptorProto
    for name, value_type in [("BytesList", fd.TYPE_BYTES), ("FloatList", fd.TYPE_FLOAT), ("DoubleList", fd.TYPE_DOUBLE),
                             ("Int32List", fd.TYPE_INT32), ("Int64List", fd.TYPE_INT64)]:
        m = f.message_type.add(name=name)
        v = m.field.add(name="value", number=1, label=fd.LABEL_REPEATED, type=value_type)
        if value_type != fd.TYPE_BYTES:
            v.options.packed = True
    feature = f.message_type.add(name="Feature")
    feature.oneof_decl.add(name="kind")
    for number, (field, type_name) in enumerate([("bytes_list", "BytesList"), ("float_list", "FloatList"),
                                                 ("double_list", "DoubleList"), ("int32_list", "Int32List"),
                                                 ("int64_list", "Int64List")], start=1):
        feature.field.add(name=field, number=number, label=fd.LABEL_OPTIONAL, type=fd.TYPE_MESSAGE,
                          type_name=".oneflow." + type_name, oneof_index=0)
    record = f.message_type.add(name="OFRecord")
    entry = record.nested_type.add(name="FeatureEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, label=fd.LABEL_OPTIONAL, type=fd.TYPE_STRING)
    entry.field.add(name="value", number=2, label=fd.LABEL_OPTIONAL, type=fd.TYPE_MESSAGE, type_name=".oneflow.Feature")
    record.field.add(name="feature", number=1, label=fd.LABEL_REPEATED, type=fd.TYPE_MESSAGE,
                     type_name=".oneflow.OFRecord.FeatureEntry")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(f)
    descriptor = pool.FindMessageTypeByName("oneflow.OFRecord")
    if GetMessageClass is not None:
        return GetMessageClass(descriptor)
    return message_factory.MessageFactory(pool).GetPrototype(descriptor)


class OFRecordFiles(Dataset):
    """Every record of the part files, by index; each worker maps the files on first use."""

    def __init__(self, files):
        self.files = files
        self.index = []  # (file number, payload offset, payload length)
        for n, path in enumerate(files):
            with open(path, "rb") as f:
                data = f.read()
            at = 0
            while at < len(data):
                (length,) = struct.unpack_from("<q", data, at)
                self.index.append((n, at + 8, length))
                at += 8 + length
        self.maps = None
        self.record_class = None

    def __len__(self):
        return len(self.index)

    def __getitem__(self, i):
        if self.maps is None:
            self.maps = []
            for path in self.files:
                with open(path, "rb") as f:
                    self.maps.append(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))
            self.record_class = ofrecord_class()
        n, at, length = self.index[i]
        record = self.record_class.FromString(self.maps[n][at:at + length])
        images = np.array(record.feature["images"].float_list.value, dtype=np.float32)
        label = np.int64(record.feature["labels"].int64_list.value[0])
        return images, label


def read_manifest(path):
    values = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.strip().partition("=")
            values[key] = value
    return values


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", default="benchmarks/target/compare-data", help="Compare's --data folder")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--passes", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    manifest = read_manifest(os.path.join(args.data, "mnist-ofrecord.manifest"))
    parts = int(manifest["parts"])
    files = [os.path.join(args.data, "mnist-ofrecord", "part-%05d" % i) for i in range(parts)]
    records = int(manifest["records"])
    payload_bytes = int(manifest["payload_bytes"])

    torch.manual_seed(args.seed)
    dataset = OFRecordFiles(files)
    assert len(dataset) == records, (len(dataset), records)
    loader = DataLoader(dataset, batch_size=args.batch, shuffle=True, num_workers=args.workers,
                        persistent_workers=args.workers > 0)
    times, firsts = [], []
    for epoch in range(args.warmup + args.passes):
        start = time.perf_counter()
        first = None
        seen = 0
        total = 0.0
        for images, labels in loader:
            if first is None:
                first = time.perf_counter() - start
            total += float(images[:, 0].sum()) + float(labels.sum())
            seen += len(labels)
        elapsed = time.perf_counter() - start
        if seen != records:
            sys.exit("an epoch delivered %d records of %d" % (seen, records))
        if epoch >= args.warmup:
            times.append(elapsed)
            firsts.append(first)
    seconds = statistics.median(times)
    print("RESULT pytorch-dataloader mnist-ofrecord records_per_s=%.0f mb_per_s=%.1f seconds=%.3f records=%d threads=%d"
          % (records / seconds, payload_bytes / 1e6 / seconds, seconds, records, args.workers))
    print("DETAIL pytorch-dataloader mnist-ofrecord threads=%d first_batch_ms=%.1f pass_seconds=%s"
          % (args.workers, statistics.median(firsts) * 1e3, ",".join("%.3f" % t for t in times)))
    print("# python %s, torch %s, protobuf %s (%s implementation), numpy %s"
          % (sys.version.split()[0], torch.__version__, __import__("google.protobuf").protobuf.__version__,
             api_implementation(), np.__version__))


def api_implementation():
    from google.protobuf.internal import api_implementation as impl
    return impl.Type()


if __name__ == "__main__":
    main()
