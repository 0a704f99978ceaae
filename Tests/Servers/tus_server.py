#!/usr/bin/env python3
"""A real tus 1.0 server for Pickup's upload tests: tuspyserver on uvicorn,
listening on 127.0.0.1 only. Uploads land in --dir, one file per upload
(named by the upload's id), with a .info file beside it.

With --certificate CERT --key KEY it serves https (the benchmark's shaped link).
Its packages (tuspyserver, uvicorn, fastapi) are in the virtualenv scripts/setup.sh makes:
run it with .build/python/bin/python.

usage: tus_server.py --port PORT --dir DIR [--days-to-keep N] [--certificate CERT --key KEY]
"""
import argparse

import uvicorn
from fastapi import FastAPI
from tuspyserver import create_tus_router


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--days-to-keep", type=int, default=1)
    parser.add_argument("--certificate")
    parser.add_argument("--key")
    args = parser.parse_args()
    app = FastAPI()
    app.include_router(create_tus_router(prefix="files", files_dir=args.dir, days_to_keep=args.days_to_keep,
                                         strict_offset_validation=True))

    @app.get("/health")
    def health():
        return {"ok": True}

    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", ssl_certfile=args.certificate,
                ssl_keyfile=args.key)


if __name__ == "__main__":
    main()
