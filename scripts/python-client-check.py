"""Drives the official Python client (`pip install supabase`) through the local platform.

Run by scripts/python-client-check.ts against `npm run server` on the conformance sample
migrations (tests/platform/sample-migrations). Prints one line per check and exits non-zero at
the first failure, with what was expected and what came back.
"""

import asyncio
import os
import sys
import uuid

import httpx
from supabase import acreate_client

URL = os.environ["SUPABASE_URL"]
ANON_KEY = os.environ["SUPABASE_ANON_KEY"]
SERVICE_ROLE_KEY = os.environ["SUPABASE_SERVICE_ROLE_KEY"]
PUBLISHABLE_KEY = os.environ["SUPABASE_PUBLISHABLE_KEY"]
PASSWORD = "senha-forte-123"


def check(name, condition, detail=""):
    if not condition:
        print(f"FAIL {name} {detail}", flush=True)
        sys.exit(1)
    print(f"ok   {name}", flush=True)


async def auth_and_rest():
    client = await acreate_client(URL, ANON_KEY)
    email = f"py-{uuid.uuid4().hex[:10]}@example.com"
    signed_up = await client.auth.sign_up({"email": email, "password": PASSWORD})
    check("auth: sign_up returns a session", signed_up.session is not None)
    await client.auth.sign_out()
    signed_in = await client.auth.sign_in_with_password({"email": email, "password": PASSWORD})
    uid = signed_in.user.id
    check("auth: sign_in_with_password", signed_in.session is not None)
    me = await client.auth.get_user()
    check("auth: get_user", me.user.id == uid, repr(me))

    inserted = await client.table("notes").insert({"body": "olá do Python"}).execute()
    check("rest: insert as the user (RLS, default owner)", inserted.data[0]["owner_id"] == uid,
          repr(inserted.data))
    mine = await client.table("notes").select("body").eq("owner_id", uid).execute()
    check("rest: select with a filter", mine.data == [{"body": "olá do Python"}], repr(mine.data))
    counted = await client.table("todos").select("id", count="exact").limit(1).execute()
    check("rest: count=exact", isinstance(counted.count, int), repr(counted))

    total = await client.rpc("add_numbers", {"a": 2, "b": 3}).execute()
    check("rpc: scalar result", total.data == 5, repr(total.data))
    who = await client.rpc("whoami").execute()
    check("rpc: runs as the caller", who.data == uid, repr(who.data))
    try:
        await client.rpc("no_such_function", {}).execute()
        check("rpc: unknown function is refused", False)
    except Exception as error:  # postgrest.APIError
        check("rpc: unknown function answers PGRST202", getattr(error, "code", None) == "PGRST202",
              repr(error))
    return client, uid


async def storage(client, uid):
    bucket = client.storage.from_("docs")
    path = f"{uid}/python.txt"
    await bucket.upload(path, b"conteudo", {"content-type": "text/plain"})
    check("storage: upload into the user's folder", True)
    check("storage: download", await bucket.download(path) == b"conteudo")
    listed = await bucket.list(uid)
    check("storage: list", [f["name"] for f in listed] == ["python.txt"], repr(listed))
    signed = await bucket.create_signed_url(path, 60)
    url = signed.get("signedURL") or signed.get("signedUrl")
    async with httpx.AsyncClient() as http:
        fetched = await http.get(url)
    check("storage: signed URL (expiresIn sent as a string)", fetched.content == b"conteudo",
          f"{fetched.status_code} {fetched.text[:200]}")
    removed = await bucket.remove([path])
    check("storage: remove", len(removed) == 1, repr(removed))


async def realtime(client):
    received = asyncio.get_running_loop().create_future()
    subscribed = asyncio.get_running_loop().create_future()

    def on_status(status, error):
        if str(status).endswith("SUBSCRIBED") and not subscribed.done():
            subscribed.set_result(True)
        elif error is not None and not subscribed.done():
            subscribed.set_exception(error)

    channel = client.channel(f"py-{uuid.uuid4().hex[:8]}", {"config": {"broadcast": {"self": True}}})
    channel.on_broadcast("ping", lambda message: received.done() or received.set_result(message))
    await channel.subscribe(on_status)
    await asyncio.wait_for(subscribed, 10)
    check("realtime: subscribe", True)
    await channel.send_broadcast("ping", {"n": 1})
    message = await asyncio.wait_for(received, 10)
    payload = message.get("payload", message) if isinstance(message, dict) else message
    check("realtime: broadcast to self", payload == {"n": 1} or payload.get("payload") == {"n": 1},
          repr(message))
    await client.remove_channel(channel)


async def keys():
    admin = await acreate_client(URL, SERVICE_ROLE_KEY)
    users = await admin.auth.admin.list_users()
    check("auth admin: list_users with the service_role key", len(users) > 0)
    publishable = await acreate_client(URL, PUBLISHABLE_KEY)
    todos = await publishable.table("todos").select("id").execute()
    check("rest: the sb_publishable_ key acts as anon", isinstance(todos.data, list), repr(todos))


async def main():
    client, uid = await auth_and_rest()
    await storage(client, uid)
    await realtime(client)
    await keys()
    print("python client: all checks passed", flush=True)


asyncio.run(main())
