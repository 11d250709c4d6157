#!/usr/bin/env python3
"""A PyTorch DataLoader over the ImageNet-like JPEGs that ImageCompare writes.

torchvision's ImageFolder over the folder of .jpg files (one folder a class; its loader is PIL's
Image.open(...).convert("RGB")), each picture through one path:

  fused   torchvision's standard training transform: RandomResizedCrop(224), RandomHorizontalFlip(),
          ToTensor(), Normalize(ImageNet's mean and std): float32 CHW
  decode  PILToTensor() only: the whole picture, uint8 CHW

DataLoader(batch_size=64, shuffle=True, num_workers=T, persistent_workers=True), whose workers
decode, transform and collate. Prints the same RESULT and DETAIL lines as ImageCompare: the median
of the timed epochs after the warm-up ones (the workers start in the first epoch), MB = 10^6 bytes
of JPEG (from the dataset's manifest).
"""
import argparse
import os
import statistics
import sys
import time

import PIL
import torch
import torchvision
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

IMAGENET_MEAN = [0.485, 0.456, 0.406]
IMAGENET_STD = [0.229, 0.224, 0.225]


def transform(path):
    if path == "fused":
        return transforms.Compose([transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(),
                                   transforms.ToTensor(), transforms.Normalize(IMAGENET_MEAN, IMAGENET_STD)])
    if path == "decode":
        return transforms.PILToTensor()
    sys.exit("no path %s: paths are decode, fused" % path)


def read_manifest(path):
    values = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.strip().partition("=")
            values[key] = value
    return values


def run(args, path, workers, images, jpeg_bytes):
    dataset = datasets.ImageFolder(os.path.join(args.data, "jpeg"), transform=transform(path))
    if len(dataset) != images:
        sys.exit("%d pictures in the folder, %d in the manifest" % (len(dataset), images))
    loader = DataLoader(dataset, batch_size=args.batch, shuffle=True, num_workers=workers,
                        persistent_workers=workers > 0)
    times, firsts = [], []
    for epoch in range(args.warmup + args.passes):
        start = time.perf_counter()
        first = None
        seen = 0
        total = 0.0
        for pictures, labels in loader:
            if first is None:
                first = time.perf_counter() - start
            total += float(pictures[:, 0, 0, 0].sum()) + float(labels.sum())
            seen += len(labels)
        elapsed = time.perf_counter() - start
        if seen != images:
            sys.exit("an epoch delivered %d pictures of %d" % (seen, images))
        if epoch >= args.warmup:
            times.append(elapsed)
            firsts.append(first)
    del loader
    seconds = statistics.median(times)
    print("RESULT pytorch-dataloader %s images_per_s=%.1f mb_per_s=%.1f seconds=%.3f images=%d threads=%d"
          % (path, images / seconds, jpeg_bytes / 1e6 / seconds, seconds, images, workers))
    print("DETAIL pytorch-dataloader %s threads=%d first_batch_ms=%.1f pass_seconds=%s"
          % (path, workers, statistics.median(firsts) * 1e3, ",".join("%.3f" % t for t in times)), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", default="benchmarks/target/image-data", help="ImageCompare's --data folder")
    p.add_argument("--threads", default="1,2", help="DataLoader workers, a run for each")
    p.add_argument("--paths", default="decode,fused")
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--passes", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    manifest = read_manifest(os.path.join(args.data, "images.manifest"))
    images = int(manifest["images"])
    jpeg_bytes = int(manifest["jpeg_bytes"])
    print("# python %s, torch %s, torchvision %s, Pillow %s; %d processors; %d torch threads in the main process"
          % (sys.version.split()[0], torch.__version__, torchvision.__version__, PIL.__version__, os.cpu_count(),
             torch.get_num_threads()), flush=True)
    torch.manual_seed(args.seed)
    paths = ["decode", "fused"] if args.paths == "all" else [s.strip() for s in args.paths.split(",") if s.strip()]
    for path in paths:
        for workers in [int(t) for t in args.threads.split(",")]:
            run(args, path, workers, images, jpeg_bytes)


if __name__ == "__main__":
    main()
