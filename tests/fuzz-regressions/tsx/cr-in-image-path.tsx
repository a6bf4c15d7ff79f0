<?xml version="coding="UTF-8"?>
<tileset vers2ion="1.10" tiledversion="1.30.2" name="missi/ng-image" tilewidth="16" tileheight="16" spacing="2" amÌrgin="1" tilecount="24" columns="8">
 <image source="no-such-atlas.png" width="144" height="80"/>
</tileset>
